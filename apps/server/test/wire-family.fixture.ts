import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

/**
 * Requests exactly as the Admin.NET family's generated clients send them, and what those clients read from
 * the answers (field names and types only: a client of the family ignores every other field). Shuzhi's
 * deliberate differences are named where they apply (`differs`), explained in docs/wire.md.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Caller = 'anonymous' | 'superadmin' | 'admin';

export type FamilyCase = {
  method: Method;
  /** The path, with the query as the client builds it (PascalCase names for GET parameters). */
  url: string;
  /** Sent as `application/json-patch+json`, as the generated clients do for every body. */
  body?: unknown;
  as: Caller;
  /** What the client reads from `result`. */
  reads: z.ZodType;
  /** A deliberate difference: the envelope code Shuzhi answers instead, and why (docs/wire.md). */
  differs?: { code: number | string; why: string };
  /** A deliberate difference of shape: `reads` then holds Shuzhi's fields, and this says why (docs/wire.md). */
  shapeDiffers?: string;
};

/** One call the way the family's axios layer makes it: Bearer token, Accept-Language, JSON patch media type. */
export function familyRequest(
  app: FastifyInstance,
  token: string | null,
  method: Method,
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return app.inject({
    method,
    url,
    headers: {
      'accept-language': 'zh-CN',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json-patch+json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
}

// What the family's pages read, by DTO.
const text = z.string();
const maybeText = z.string().nullable();
const id = z.number().int();
export const page = (item: z.ZodType) =>
  z.object({
    page: z.number(),
    pageSize: z.number(),
    total: z.number(),
    totalPages: z.number(),
    items: z.array(item),
    hasPrevPage: z.boolean(),
    hasNextPage: z.boolean(),
  });
const audited = { id, createTime: maybeText, updateTime: maybeText.optional() };
const menuNode: z.ZodType = z.lazy(() =>
  z.object({
    id,
    pid: id,
    type: z.number(),
    name: maybeText,
    path: maybeText,
    component: maybeText,
    permission: maybeText,
    orderNo: z.number(),
    status: z.number(),
    meta: z.object({ title: text, icon: maybeText, isHide: z.boolean(), isKeepAlive: z.boolean() }),
    children: z.array(menuNode).optional().nullable(),
  }),
);
const orgNode: z.ZodType = z.lazy(() =>
  z.object({ id, pid: id, name: text, code: text, children: z.array(orgNode).optional().nullable() }),
);

export const READS = {
  captcha: z.object({ id, img: z.string().regex(/^[A-Za-z0-9+/]+=*$/) }),
  loginConfig: z.object({ secondVerEnabled: z.boolean(), captchaEnabled: z.boolean() }),
  login: z.object({ accessToken: text, refreshToken: text, homepage: maybeText }),
  userInfo: z.object({
    id,
    account: text,
    realName: text,
    phone: maybeText,
    email: maybeText,
    idCardNum: maybeText,
    accountType: z.number(),
    avatar: text,
    address: maybeText,
    signature: maybeText,
    orgId: id.nullable(),
    orgName: maybeText,
    posName: maybeText,
    buttons: z.array(text),
    roleIds: z.array(id),
  }),
  watermark: z.object({ watermarkEnabled: z.boolean() }),
  sysInfo: z.object({
    logo: text,
    title: text,
    viceTitle: text,
    viceDesc: text,
    icp: text,
    icpUrl: text,
    watermark: text,
  }),
  config: z.object({
    ...audited,
    name: text,
    code: text,
    value: maybeText,
    sysFlag: z.number(),
    remark: maybeText,
  }),
  configItem: z.object({ code: text, value: maybeText }),
  const: z.object({ name: text, code: z.union([text, z.number()]) }),
  dictType: z.object({ ...audited, name: text, code: text, status: z.number(), orderNo: z.number() }),
  /** Shuzhi's names: `label` (the family's `value`) and `value` (the family's `code`). */
  dictData: z.object({ id, label: text, value: text, status: z.number(), orderNo: z.number() }),
  allDict: z.record(z.string(), z.array(z.object({ label: text, value: text }))),
  menuNode,
  orgNode,
  org: z.object({
    id,
    pid: id,
    name: text,
    code: text,
    type: maybeText,
    status: z.number(),
    orderNo: z.number(),
  }),
  region: z.object({ id, pid: id, name: text, code: text }),
  user: z.object({
    ...audited,
    account: text,
    realName: maybeText,
    phone: maybeText,
    accountType: z.number(),
    status: z.number(),
    orgId: id.nullable(),
    orgName: maybeText,
    posName: maybeText,
  }),
  role: z.object({ ...audited, name: text, code: text, dataScope: z.number(), status: z.number() }),
  roleOption: z.object({ id, name: text, code: text }),
  pos: z.object({ ...audited, name: text, code: text, status: z.number(), orderNo: z.number() }),
  tenantOption: z.object({ label: text, value: id, host: maybeText }),
  tenant: z.object({ ...audited, name: text, code: text, host: maybeText, status: z.number() }),
  notice: z.object({ ...audited, title: text, type: z.number(), status: z.number(), publicTime: maybeText }),
  received: z.object({ id, title: text, type: z.number(), publicTime: maybeText, readStatus: z.number() }),
  unread: z.object({ id, title: text, type: z.number(), content: text, publicTime: maybeText }),
  onlineUser: z.object({
    id,
    userId: id,
    userName: maybeText.optional(),
    ip: maybeText,
    time: maybeText.optional(),
  }),
  logVis: z.object({ id, account: maybeText, realName: maybeText }),
  file: z.object({ id, fileName: maybeText, suffix: maybeText, sizeKb: z.number().nullable().optional() }),
  jobDetail: z.object({
    jobDetail: z.object({ id, jobId: text, groupName: maybeText.optional(), description: maybeText }),
    jobTriggers: z.array(z.object({ id, triggerId: text, status: z.number() })),
  }),
  trigger: z.object({ id, jobId: text, triggerId: text, status: z.number() }),
  serverBase: z.object({
    hostName: text,
    systemOs: text,
    osArchitecture: text,
    processorCount: z.number(),
    sysRunTime: text,
    remoteIp: text,
    localIp: text,
    frameworkDescription: text,
    environment: text,
    wwwroot: text,
  }),
  serverUsed: z.object({
    freeRam: text,
    usedRam: text,
    totalRam: text,
    ramRate: text.regex(/^\d+%$/),
    cpuRate: text.regex(/^\d+%$/),
    startTime: text,
    runTime: text,
  }),
  serverDisk: z.array(
    z.object({
      diskName: text,
      used: z.number(),
      availableFreeSpace: z.number(),
      availablePercent: z.number(),
    }),
  ),
  lang: z.object({ label: text, value: text }),
  id,
  ids: z.array(id),
  strings: z.array(text),
  string: text,
  bool: z.boolean(),
  nothing: z.null(),
  any: z.unknown(),
};

import type { TestProject } from 'vitest/node';
import { launchShuzhi } from './server.ts';

/** One built app for the whole E2E run, captcha off so flows can sign in. */
export default async function setup(project: TestProject) {
  const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
  project.provide('baseUrl', shuzhi.baseUrl);
  return shuzhi.stop;
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

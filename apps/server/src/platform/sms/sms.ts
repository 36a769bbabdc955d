import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from '../config/config.ts';

/** A sign-in code (`code`), or a notification text (`text`, a task reminder); the template names which. */
export type SmsMessage = { phone: string; template: string; code?: string; text?: string };

/** Delivers SMS; chosen by `SMS_PROVIDER`. A rejected promise means the message did not go out. */
export type SmsSender = { readonly name: string; send(message: SmsMessage): Promise<void> };

/** The template name the gateway maps to its approved text. */
export const SMS_LOGIN_TEMPLATE = 'login';
/** A task reminder (issue 19 §3): `text` carries the task and its due time. */
export const SMS_TASK_URGE_TEMPLATE = 'taskUrge';

const HTTP_TIMEOUT_MS = 10_000;

/**
 * Writes the code to the server log instead of sending it: the default for demo and intranet deployments
 * without a gateway, and what the E2E tests read.
 */
export function logSmsSender(log: FastifyBaseLogger): SmsSender {
  return {
    name: 'log',
    async send(message) {
      log.info(
        { sms: message },
        message.code === undefined
          ? `sms ${message.template} for ${message.phone}: ${message.text ?? ''}`
          : `sms code ${message.code} for ${message.phone}`,
      );
    },
  };
}

/** POSTs `{phone, template, code | text}` as JSON to the gateway; any answer but 2xx counts as not sent. */
export function httpSmsSender(url: string): SmsSender {
  return {
    name: 'http',
    async send(message) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
      });
      // Drain the body so the connection is released.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new Error(`SMS gateway answered HTTP ${response.status}`);
    },
  };
}

const senders = new WeakMap<AppConfig, SmsSender>();

/** The configured sender (one per app configuration). */
export function smsSenderFor(config: AppConfig, log: FastifyBaseLogger): SmsSender {
  let sender = senders.get(config);
  if (!sender) {
    sender =
      config.sms.provider === 'http' && config.sms.httpUrl
        ? httpSmsSender(config.sms.httpUrl)
        : logSmsSender(log);
    senders.set(config, sender);
  }
  return sender;
}

import type { Envelope } from '@shuzhi/contracts/envelope';
import { currentDateTime } from '../db/time.ts';

export function success<T>(result: T): Envelope<T> {
  return {
    code: 200,
    type: 'success',
    message: '',
    result,
    extras: null,
    time: currentDateTime(),
    errors: null,
  };
}

export function failure(
  code: number | string,
  message: string,
  errors: Record<string, string[]> | string | null = null,
): Envelope<null> {
  return { code, type: 'error', message, result: null, extras: null, time: currentDateTime(), errors };
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

const SUCCESS_HEAD = '{"code":200,"type":"success","message":"","result":';
const SUCCESS_TAIL = ',"extras":null,"time":';
const SUCCESS_END = ',"errors":null}';

/**
 * A route result already serialised to JSON, for hot answers cached per user: the route sends the success
 * envelope around it as bytes, identical to `JSON.stringify(success(value))`, without serialising the value
 * (or measuring its UTF-8 length) again. The envelope bytes are reused within the same second, since only
 * its `time` changes. Cache the instance together with the value it was made from.
 */
export class SerializedResult {
  private time = '';
  private bytes: Buffer | null = null;
  constructor(readonly json: string) {}

  static of(value: unknown): SerializedResult {
    return new SerializedResult(JSON.stringify(value));
  }

  /** The success envelope's bytes at the current second. */
  envelope(): Buffer {
    const time = currentDateTime();
    if (this.bytes === null || time !== this.time) {
      this.bytes = Buffer.from(
        `${SUCCESS_HEAD}${this.json}${SUCCESS_TAIL}${JSON.stringify(time)}${SUCCESS_END}`,
      );
      this.time = time;
    }
    return this.bytes;
  }
}

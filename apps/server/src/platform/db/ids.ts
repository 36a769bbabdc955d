/**
 * Time-ordered 53-bit ids (safe as JSON numbers): 41 bits of milliseconds since 2025-01-01 (until 2094),
 * 5 bits of worker number, 7 bits of sequence (128 ids per millisecond and worker).
 */
const EPOCH = Date.UTC(2025, 0, 1);
const WORKER_BITS = 5;
const SEQUENCE_BITS = 7;
const MAX_SEQUENCE = (1 << SEQUENCE_BITS) - 1;

export type IdGenerator = () => number;

export function createIdGenerator(workerId: number | null): IdGenerator {
  const worker = workerId ?? Math.floor(Math.random() * (1 << WORKER_BITS));
  let lastMs = 0;
  let sequence = 0;
  return () => {
    // Never go back in time: a clock step backwards keeps counting on the last millisecond.
    let ms = Math.max(Date.now() - EPOCH, lastMs);
    if (ms === lastMs) {
      sequence += 1;
      if (sequence > MAX_SEQUENCE) {
        ms += 1;
        sequence = 0;
      }
    } else {
      sequence = 0;
    }
    lastMs = ms;
    return ms * 2 ** (WORKER_BITS + SEQUENCE_BITS) + worker * 2 ** SEQUENCE_BITS + sequence;
  };
}

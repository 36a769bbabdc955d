import { type Algorithm, hash, verify } from '@node-rs/argon2';

// The package's `Algorithm` is a const enum, which isolated modules cannot read: Argon2id is 2.
const ARGON2ID = 2 as Algorithm;

export type HashCost = { memoryCost: number; timeCost: number };

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
export const DEFAULT_HASH_COST: HashCost = { memoryCost: 19_456, timeCost: 2 };

export function hashPassword(password: string, cost: HashCost): Promise<string> {
  return hash(password, {
    algorithm: ARGON2ID,
    memoryCost: cost.memoryCost,
    timeCost: cost.timeCost,
    parallelism: 1,
  });
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

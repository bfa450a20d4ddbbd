import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { PasswordHasherPort } from '../../core/ports/password-hasher.port.js';

/** Argon2id parameters; the defaults are OWASP's first recommendation (m = 19 MiB, t = 2, p = 1). */
export interface Argon2Options {
  /** KiB of memory; default 19456. */
  readonly memoryCost?: number;
  /** Passes; default 2. */
  readonly timeCost?: number;
  /** Lanes; default 1. */
  readonly parallelism?: number;
}

const ARGON2ID = 2 as Algorithm; // Algorithm.Argon2id: a const enum, which isolatedModules cannot read.

/** Password hashing with Argon2id through @node-rs/argon2 (off the event loop, in libuv's pool). */
export function createArgon2PasswordHasher(options: Argon2Options = {}): PasswordHasherPort {
  const params = {
    algorithm: ARGON2ID,
    memoryCost: options.memoryCost ?? 19_456,
    timeCost: options.timeCost ?? 2,
    parallelism: options.parallelism ?? 1,
  };
  return {
    hash: (password) => hash(password, params),
    async verify(encoded, password) {
      try {
        return await verify(encoded, password);
      } catch {
        return false;
      }
    },
  };
}

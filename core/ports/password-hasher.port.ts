/** Slow, salted password hashing (Argon2id or scrypt at OWASP's parameters, CONTRACT §1). */
export interface PasswordHasherPort {
  hash(password: string): Promise<string>;
  /** False for a wrong password or an unreadable hash; never throws for either. */
  verify(hash: string, password: string): Promise<boolean>;
}

/** The database named is some other program's, not a register: refused untouched (a usage error in the CLI). */
export class NotARegisterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotARegisterError';
  }
}

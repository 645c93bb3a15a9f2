/**
 * A reason the sidecar must not start (corrupt or foreign file, lock held, bad key file).
 * main.ts prints the message as one paragraph, without a stack trace, and exits non-zero.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** A reason the sidecar must not start: main.ts prints the message as one paragraph, without a stack trace, and exits non-zero. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

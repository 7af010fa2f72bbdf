// The error of everything that talks to an external image generator (provider.ts, the model profiles, the
// shop's generator jobs), in a file of its own: the profiles throw it and the provider interface names a
// profile, so neither imports the other for it.
export class GeneratorError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    /** Asking again cannot help (a setting is wrong, or asking again would pay for a picture twice): the job ends at once for staff. */
    readonly final = false,
  ) {
    super(message);
    this.name = 'GeneratorError';
  }
}

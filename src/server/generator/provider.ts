// One interface for an external image generator (a hosted generative model for what the studio cannot do:
// outfits, styles). The HTTP adapter speaks the prediction API of the Replicate kind (replicate-generator.ts).

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export interface Prediction {
  id: string;
  status: PredictionStatus;
  /** Addresses of the finished images (valid for a short time at the provider). */
  output: string[];
  error: string | null;
}

export interface PredictionInput {
  /** Short-lived signed links to the customer's photos. */
  images: string[];
  prompt: string;
  count: number;
}

export interface ImageGenerator {
  readonly name: string;
  create(input: PredictionInput, webhookUrl: string | null): Promise<Prediction>;
  get(id: string): Promise<Prediction>;
  /** Downloads one output (size- and type-checked by the caller). */
  fetchOutput(url: string): Promise<Buffer>;
  /** Removes the prediction with its inputs and outputs at the provider, once we have our copies. */
  remove(id: string): Promise<void>;
}

export class GeneratorError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'GeneratorError';
  }
}

// What the database's JSON columns hold (src/server/db/schema.ts gives each column its type with `.$type`), in
// one place that the server and the browser share. Stored data outlives the code that wrote it: where rows of
// an older version lack a field, the field is optional; where a column holds data of several kinds, the type
// is a union; names from lists that may grow (formats, backdrops, reasons) are strings.

/** order_uploads.quality: the upload gate's report (src/studio/quality-gate.ts QualityReport), or `unchecked`. */
export type StoredPhotoQuality = StoredQualityReport | UncheckedPhoto;

/** The gate's report: 'ok' or 'warning' at upload (a refused photo is not stored); the studio stores any verdict of a photo it checks late. */
export interface StoredQualityReport {
  verdict: 'ok' | 'warning' | 'refused';
  /** Warnings (and, on a refused report, its refusal): the codes of QualityIssueCode, PhotoWarning among them. */
  issues: { code: string; measured: number; limit: number }[];
  /** The main face in the stored photo's pixels (angles in radians), for framing. */
  face: { x: number; y: number; width: number; height: number; yaw: number; pitch: number; roll: number } | null;
  measures: { faces: number; faceHeightRatio?: number; faceHeightPx?: number; sharpness?: number; brightness?: number; clipped?: number; otherPersonAtSide?: number };
  /**
   * The main face's 128-d descriptor (biometric data: never logged, never sent to the browser). Missing in
   * reports made before the identity check, and when the net found no face to describe.
   */
  descriptor?: number[];
}

/** The gate itself failed (its models did not run in time): the photo was accepted unchecked. */
export interface UncheckedPhoto {
  verdict: 'unchecked';
}

/** The gate's report of a stored photo, or null when the gate did not check it (or nothing is stored). */
export function qualityReport(quality: StoredPhotoQuality | null | undefined): StoredQualityReport | null {
  return quality && quality.verdict !== 'unchecked' ? quality : null;
}

/** photo_checks.details: the refusal's details (the error's, as the customer's answer carries them: PhotoState). */
export type PhotoRefusalDetails = Record<string, unknown>;

/**
 * generated_images.variant: how a picture was made. A studio draft (generation_type 'studio') and a generator's
 * draft ('external') record different things; staff uploads ('admin_upload') have none (null).
 */
export type PictureVariant = StudioDraftVariant | GeneratorDraftVariant;

/** An identity check's outcome: the distance to the customer's own photos and the limit it was held to. */
export interface IdentityDistance {
  distance: number;
  limit: number;
}

/** A studio draft: its render spec (src/studio/render.ts DraftSpec), the photo it was made from and its slot. */
export interface StudioDraftVariant {
  /** The output format's key: portrait, square, application. */
  format: string;
  backdrop: { kind: string; variant: number };
  style: string;
  /** 0 or missing: the format's framing; 1 a little wider, 2 a little tighter. Missing before framing variations. */
  variation?: number;
  /** Made again without skin smoothing and style (the face was not recognised otherwise). */
  gentle?: boolean;
  /** The output gate's identity check; null without reference faces; missing on drafts made before the gate. */
  identity?: IdentityDistance | null;
  photoId: string;
  /** The outfit the customer asked for (the studio keeps the photo's clothes): shown to staff. */
  requestedOutfit: string | null;
  generation: number;
  index: number;
  /** A customer's redo: what its reason changed (src/studio/redo-reason.ts RedoChange; empty: nothing read). */
  redo?: string[];
  /** Only on a generator's draft. */
  generator?: undefined;
}

/** A generator's draft: the prediction it came from, its picture of the plan, and what the gate measured. */
export interface GeneratorDraftVariant {
  /** The generator's name (its model). */
  generator: string;
  predictionId: string;
  generation: number;
  /** The picture's number in the run's plan (from 0). */
  index: number;
  // The fields below were added when drafts went through the output gate: drafts of the first generator runs lack them.
  attempt?: number;
  format?: string;
  dpi?: number;
  identity?: IdentityDistance;
  outfit?: { category: string; description: string };
  background?: { location: string; description: string };
  /** The face's height as a share of the frame's height. */
  faceHeightShare?: number;
  /** Only on a studio draft. */
  photoId?: undefined;
  backdrop?: undefined;
}

/**
 * payment_events.payload: the provider's verified event as it arrived (Stripe's event object; the sandbox's look
 * the same), kept as the record of what was applied. Only what stripe-events.ts checked is known of it.
 */
export interface ProviderEventPayload {
  id: string;
  object: 'event';
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
  [field: string]: unknown;
}

/** audit_log.details: what the action recorded; each action its own fields (shown to staff as they are). */
export type AuditDetails = Record<string, unknown>;

/** sandbox_checkout_sessions.line_items: the lines of a sandbox checkout (server/payment-providers/provider.ts CheckoutLineItem). */
export interface SandboxLineItem {
  name: string;
  amountCents: number;
  quantity: number;
}

/** sandbox_checkout_sessions.metadata: Stripe's metadata (order_id, order_number) and the sandbox's own `_sandbox_*` keys. */
export type SandboxMetadata = Record<string, string>;

/**
 * jobs.payload: what a job needs to run, as a JSON object. Its shape is its queue's: each queue declares its
 * payload with its name (Queue, src/server/jobs/queue.ts), enqueueing checks it and the queue's handler reads it;
 * a row read without regard to its queue is only an object.
 */
export type JobPayload = object;

/** A prediction's end as its webhook reported it (a Cog container has no other way to tell), and the gate's verdict. */
export interface PredictionEnd {
  id: string;
  status: PredictionStatus;
  error: string | null;
  /** Trying again cannot help (the job ends at once). */
  final?: boolean;
  /** The model's own run time, where the provider reports it. */
  predictTime?: number;
  /** Since when (ms since the epoch) the webhook has been checking and storing the picture. */
  collecting?: number;
  rejection?: { reason: string; distance?: number };
}

/** A prediction's state at the provider. */
export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

/** jobs.progress of a studio job (studio.drafts): drafts made of those planned, and those the output gate refused. */
export interface StudioJobProgress {
  done: number;
  total: number;
  refused?: number;
}

/** A picture the generator's gate discarded: which, which attempt, why, and how far the face was from the customer's. */
export interface DiscardedPicture {
  picture: number;
  attempt: number;
  reason: string;
  distance?: number;
}

/** jobs.progress of a generator job (generator.predict). */
export interface GeneratorJobProgress {
  /** The prediction under way, for which picture of the plan, in which attempt. */
  predictionId?: string;
  picture?: number;
  attempt?: number;
  pictures?: number;
  /** The prediction's status, or the run's: discarded, incomplete, succeeded. */
  status?: string;
  /** Pictures stored (three drafts each). */
  done?: number;
  total?: number;
  /** Attempts used per picture (index → count), so a job that runs again does not ask more often. */
  attempts?: Record<string, number>;
  discarded?: DiscardedPicture[];
  /** Discarded before staff sent the job round again. */
  earlier?: DiscardedPicture[];
  /** Pictures given up after every attempt was discarded. */
  missing?: number[];
  webhook?: PredictionEnd;
}

/** jobs.progress of the generator's self-check (generator.selfcheck): its prediction, then its result. */
export interface SelfCheckJobProgress {
  predictionId?: string;
  status?: string;
  webhook?: PredictionEnd;
  result?: SelfCheckResult;
}

/** What the generator's self-check found (src/server/modules/production/generator-self-check.ts). */
export interface SelfCheckResult {
  ok: boolean;
  /** Each thing that is wrong, for the operator (empty when ok). */
  problems: string[];
  model: string;
  kind: 'replicate' | 'cog';
  profile: string;
  predictionId: string | null;
  /** The inputs as sent (the face's signed link shortened). */
  inputs: Record<string, unknown> | null;
  /** From sending the prediction to holding its picture. */
  seconds: number | null;
  /** The model's own run time, where the provider reports it. */
  predictTime: number | null;
  /** What the prediction cost, where the provider reports it: neither Replicate's prediction nor Cog does (null). */
  cost: number | null;
  /** Storage key of the picture (the staff view signs a link to it). */
  pictureKey: string | null;
  distance: number | null;
  limit: number;
  /** The gate's verdict: 'ok' or its reason (otherPerson, noFace, …). */
  verdict: string | null;
  finishedAt: string;
}

/**
 * jobs.progress: how far a job got, as its queue reports it (null until it reports; photo checks and mails never
 * do). Each queue writes its own kind (above; its handler reads it as such, Queue in src/server/jobs/queue.ts); a
 * row read without regard to its queue may be any of them, so every field is optional here.
 */
export type JobProgress = Partial<StudioJobProgress> & GeneratorJobProgress & SelfCheckJobProgress;

// Is this the same person? Face descriptors (inference.describeFace) compared by Euclidean distance, against
// the limit measured on real photos (thresholds.ts). Pure functions: no models, no I/O.
// Descriptors are biometric data: they live only as long as their photo (in the upload's quality report,
// deleted with it) and are never logged or sent to the browser.
import { qualityReport, type StoredPhotoQuality } from '../domain/stored-json.js';
import type { FaceDescriptor } from './inference/types.js';
import { IDENTITY } from './thresholds.js';

export const DESCRIPTOR_LENGTH = 128;

export interface IdentityComparison {
  /** Distance to the closest reference. */
  distance: number;
  samePerson: boolean;
}

export function isDescriptor(value: unknown): value is FaceDescriptor {
  return Array.isArray(value) && value.length === DESCRIPTOR_LENGTH && value.every((n) => typeof n === 'number' && Number.isFinite(n));
}

export function descriptorDistance(a: FaceDescriptor, b: FaceDescriptor): number {
  if (a.length !== b.length) throw new Error('descriptors of different lengths');
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return Math.sqrt(sum);
}

/**
 * One face against the references (the order's accepted photos): the same person when it is close enough
 * to at least one of them, so one poor reference photo does not refuse the customer. Null without
 * references: nothing to compare with (the first photo of an order).
 */
export function compareIdentity(descriptor: FaceDescriptor, references: readonly FaceDescriptor[], maxDistance: number = IDENTITY.maxSamePersonDistance): IdentityComparison | null {
  if (references.length === 0) return null;
  const distance = Math.min(...references.map((reference) => descriptorDistance(descriptor, reference)));
  return { distance, samePerson: distance <= maxDistance };
}

/** Stored form: 4 decimals are far below the distances that matter and keep the JSON small. */
export function roundDescriptor(descriptor: FaceDescriptor): FaceDescriptor {
  return descriptor.map((n) => Math.round(n * 10_000) / 10_000);
}

/** The descriptor kept in an upload's quality report (order_uploads.quality), if the gate made one. */
export function storedDescriptor(quality: StoredPhotoQuality | null): FaceDescriptor | null {
  const descriptor = qualityReport(quality)?.descriptor;
  return isDescriptor(descriptor) ? descriptor : null;
}

/**
 * Whether a new photo shows another person than the order's photos: false when there is nothing to compare
 * (the first photo, a photo the gate could not check, reports made before the identity check).
 */
export function showsAnotherPerson(newQuality: StoredPhotoQuality | null, acceptedQualities: readonly (StoredPhotoQuality | null)[]): boolean {
  const descriptor = storedDescriptor(newQuality);
  if (!descriptor) return false;
  const references = acceptedQualities.map(storedDescriptor).filter((reference): reference is FaceDescriptor => reference !== null);
  return compareIdentity(descriptor, references)?.samePerson === false;
}

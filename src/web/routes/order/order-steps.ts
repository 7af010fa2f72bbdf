// The wizard's heavier steps load when they are shown: the first steps need neither the photo uploader nor
// the schema library that checks the order form. (Like every lazy page, the server has them loaded at start.)
import { lazyPage, type LazyPage } from '../../lazy-page.js';

export const UploadStepPage = lazyPage(() => import('./upload-step.js').then((m) => ({ default: m.UploadStep })));
export const SummaryStepPage = lazyPage(() => import('./summary-step.js').then((m) => ({ default: m.SummaryStep })));

/** The step module a wizard address shows, so the browser can load it before hydrating. */
export function stepPageForPath(pathname: string): LazyPage | null {
  const step = pathname.replace(/\/+$/, '').split('/')[2];
  if (step === 'upload') return UploadStepPage;
  if (step === 'summary' || step === 'features') return SummaryStepPage;
  return null;
}

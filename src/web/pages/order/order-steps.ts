// The wizard's steps load when they are shown, each with what it alone needs: the choice steps (one module),
// the upload step with the photo uploader, the summary. The wizard's frame (order-layout.tsx) loads with the
// first of them, so a step shows no other step's code and no schema library. (Like every lazy page, the
// server has them loaded at start.)
import { lazyPage, type LazyPage } from '../../shell/lazy-page.js';

const choiceSteps = () => import('./choice-steps.js');
export const GenderStepPage = lazyPage(() => choiceSteps().then((m) => ({ default: m.GenderStep })));
export const StyleStepPage = lazyPage(() => choiceSteps().then((m) => ({ default: m.StyleStep })));
export const PackageStepPage = lazyPage(() => choiceSteps().then((m) => ({ default: m.PackageStep })));
export const RefinementStepPage = lazyPage(() => choiceSteps().then((m) => ({ default: m.RefinementStep })));
export const UploadStepPage = lazyPage(() => import('./upload-step.js').then((m) => ({ default: m.UploadStep })));
export const SummaryStepPage = lazyPage(() => import('./summary-step.js').then((m) => ({ default: m.SummaryStep })));

/** The four choice steps come in one file: loading one has them all, so moving between them never waits. */
const CHOICE_STEPS: Pick<LazyPage, 'preload'> = {
  preload: () => Promise.all([GenderStepPage, StyleStepPage, PackageStepPage, RefinementStepPage].map((page) => page.preload())).then(() => undefined),
};

/** The step module a wizard address shows, so the browser can load it before hydrating. */
export function stepPageForPath(pathname: string): Pick<LazyPage, 'preload'> | null {
  const step = pathname.replace(/\/+$/, '').split('/')[2];
  if (step === 'upload') return UploadStepPage;
  if (step === 'summary' || step === 'features') return SummaryStepPage;
  // The wizard's start (/order) shows the gender step, as do addresses the wizard does not know.
  return CHOICE_STEPS;
}

import { Suspense } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PACKAGES } from '../../../domain/catalog.js';
import { useI18n } from '../../lib/i18n.js';
import { useWizard, WizardProvider } from './wizard-state.js';

export type StepKey = 'gender' | 'upload' | 'style' | 'package' | 'refinement';

/** Steps in the order that governs navigation (spec section 2); refinement only for pro and premium. */
export function wizardSteps(pkg: keyof typeof PACKAGES | null): StepKey[] {
  const steps: StepKey[] = ['gender', 'upload', 'style', 'package'];
  if (!pkg || PACKAGES[pkg].hasRefinement) steps.push('refinement');
  return steps;
}

function currentStep(pathname: string): StepKey | 'summary' {
  const part = pathname.replace(/\/+$/, '').split('/')[2] ?? 'gender';
  if (part === 'summary' || part === 'features') return 'summary';
  return (['gender', 'upload', 'style', 'package', 'refinement'] as const).find((s) => s === part) ?? 'gender';
}

function ProgressBar() {
  const { t } = useI18n();
  const { state } = useWizard();
  const location = useLocation();
  const step = currentStep(location.pathname);
  if (step === 'summary') return null;
  const steps = wizardSteps(state.selection.package);
  const index = Math.max(0, steps.indexOf(step));
  return (
    <div className="progress" data-testid="wizard-progress">
      <p className="progress__label">{t('order.progress', { current: index + 1, total: steps.length })}</p>
      <ol className="progress__steps">
        {steps.map((key, i) => (
          <li key={key} className={`progress__step${i < index ? ' progress__step--done' : ''}${i === index ? ' progress__step--current' : ''}`} aria-current={i === index ? 'step' : undefined}>
            <span className="progress__dot" aria-hidden="true" />
            <span className="progress__name">{t(`order.steps.${key}`)}</span>
          </li>
        ))}
      </ol>
      <div className="progress__bar" aria-hidden="true">
        <div className={`progress__fill progress__fill--${Math.round(((index + 1) / steps.length) * 100)}`} />
      </div>
    </div>
  );
}

export function OrderLayout() {
  return (
    <WizardProvider>
      <div className="wizard">
        <ProgressBar />
        {/* A step that loads on demand (order-steps.ts) shows an empty step meanwhile, under the progress bar. */}
        <Suspense fallback={<section className="step" aria-busy="true" />}>
          <Outlet />
        </Suspense>
      </div>
    </WizardProvider>
  );
}

/** Back and next buttons at the bottom of a step. */
export function StepNav(props: { back?: string; onNext?: () => void; nextLabel?: string; nextDisabled?: boolean }) {
  const { t } = useI18n();
  const navigate = useNavigate();
  return (
    <div className="step-nav">
      {props.back && (
        <button type="button" className="button button--secondary" onClick={() => navigate(props.back!)}>
          {t('order.back')}
        </button>
      )}
      {props.onNext && (
        // Not disabled: a click on an incomplete step explains what is missing (spec: an alert).
        <button type="button" className={`button button--primary${props.nextDisabled ? ' button--muted' : ''}`} onClick={props.onNext} data-testid="next">
          {props.nextLabel ?? t('order.next')}
        </button>
      )}
    </div>
  );
}

export function StepHeader(props: { title: string; subtitle?: string }) {
  return (
    <header className="step-header">
      <h1 className="step-header__title">{props.title}</h1>
      {props.subtitle && <p className="step-header__subtitle">{props.subtitle}</p>}
    </header>
  );
}

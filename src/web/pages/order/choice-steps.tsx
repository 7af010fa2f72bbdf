// The steps that are one choice each: gender, style, package and refinement (location, and the outfit
// where a generator can make one).
import { useState, type ComponentProps, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { offeredLocations } from '../../../domain/capabilities.js';
import { BASE_STYLES, GENDERS, OUTFITS, PACKAGES, PACKAGE_KEYS, type PackageKey } from '../../../domain/catalog.js';
import { formatMoney } from '../../../domain/money.js';
import { useAppData } from '../../app-data.js';
import { useI18n } from '../../lib/i18n.js';
import { StepHeader, StepNav } from './order-layout.js';
import { useWizard } from './wizard-state.js';
import { trackEvent } from '../../lib/metrics.js';
import { ChoiceButton } from './choice-button.js';

/** A step that is one choice: its answers as buttons under the step's title (order.${step}.*). */
function ChoiceStep<K extends string>(props: {
  step: 'gender' | 'style' | 'package';
  options: readonly K[];
  selected: K | null;
  answer: (key: K) => Omit<ComponentProps<typeof ChoiceButton>, 'selected' | 'onClick' | 'testId'>;
  onChoose: (key: K) => void;
  /** What follows the answers: notes and the step's navigation. */
  children?: ReactNode;
}) {
  const { t } = useI18n();
  const { step } = props;
  return (
    <section className="step">
      <StepHeader title={t(`order.${step}.title`)} subtitle={t(`order.${step}.subtitle`)} />
      <div className="choices choices--three" role="group" aria-label={t(`order.${step}.title`)}>
        {props.options.map((key) => (
          <ChoiceButton key={key} testId={`${step}-${key}`} selected={props.selected === key} {...props.answer(key)} onClick={() => props.onChoose(key)} />
        ))}
      </div>
      {props.children}
    </section>
  );
}

export function GenderStep() {
  const { t } = useI18n();
  const { state, select } = useWizard();
  const navigate = useNavigate();
  return (
    <ChoiceStep
      step="gender"
      options={GENDERS}
      selected={state.selection.gender}
      answer={(gender) => ({ title: t(`catalog.genders.${gender}`) })}
      onChoose={(gender) => {
        select({ gender });
        navigate('/order/upload');
      }}
    />
  );
}

export function StyleStep() {
  const { t } = useI18n();
  const { state, select } = useWizard();
  const navigate = useNavigate();
  return (
    <ChoiceStep
      step="style"
      options={BASE_STYLES}
      selected={state.selection.style}
      answer={(style) => ({ title: t(`catalog.styles.${style}.name`), description: t(`catalog.styles.${style}.description`) })}
      onChoose={(style) => {
        select({ style });
        navigate('/order/package');
      }}
    >
      <StepNav back="/order/upload" />
    </ChoiceStep>
  );
}

export function PackageStep() {
  const { t } = useI18n();
  const { catalog } = useAppData();
  const { state, select } = useWizard();
  const navigate = useNavigate();
  const viewOf = (key: PackageKey) => catalog.packages.find((p) => p.key === key)!;
  return (
    <ChoiceStep
      step="package"
      options={PACKAGE_KEYS}
      selected={state.selection.package}
      answer={(key) => {
        const view = viewOf(key);
        return {
          badge: view.popular ? t('home.pricing.popular') : undefined,
          title: t(`catalog.packages.${key}.name`),
          description: t(`catalog.packages.${key}.description`),
          extra: (
            <span className="choice__price">
              <strong>{formatMoney(view.priceCents)}</strong>
              {view.priceCents < view.listPriceCents && <s>{formatMoney(view.listPriceCents)}</s>}
              <span className="choice__meta">
                {t('home.pricing.photos', { n: view.imageCount })} · {t('home.pricing.delivery', { hours: view.deliveryHours })}
              </span>
            </span>
          ),
        };
      }}
      onChoose={(key) => {
        // Extras the new package does not offer are dropped; location and outfit only matter with refinement.
        const extras = state.selection.extras.filter((e) => viewOf(key).offeredExtras.includes(e));
        select({ package: key, extras });
        trackEvent('package_selected', key);
        navigate(PACKAGES[key].hasRefinement ? '/order/refinement' : '/order/summary');
      }}
    >
      <p className="step__note" data-testid="business-hours">
        {t('common.businessHoursRule')}
      </p>
      <StepNav back="/order/style" />
    </ChoiceStep>
  );
}

/** One choice of the refinement step under its heading: the locations, or the outfits (catalog.locations, catalog.outfits). */
function RefinementChoices<K extends string>(props: {
  kind: 'location' | 'outfit';
  title: string;
  options: readonly K[];
  columns: 'two' | 'three';
  selected: K | null;
  onSelect: (key: K) => void;
}) {
  const { t } = useI18n();
  const { kind } = props;
  return (
    <>
      <h2 className="step__subheading" id={`${kind}-heading`}>
        {props.title}
      </h2>
      <div className={`choices choices--${props.columns}`} role="group" aria-labelledby={`${kind}-heading`}>
        {props.options.map((key) => (
          <ChoiceButton
            key={key}
            testId={`${kind}-${key}`}
            selected={props.selected === key}
            title={t(`catalog.${kind}s.${key}.name`)}
            description={t(`catalog.${kind}s.${key}.description`)}
            onClick={() => props.onSelect(key)}
          />
        ))}
      </div>
    </>
  );
}

export function RefinementStep() {
  const { t } = useI18n();
  const { capabilities } = useAppData();
  const { state, select } = useWizard();
  const navigate = useNavigate();
  const [showRequired, setShowRequired] = useState(false);
  const { location, outfit } = state.selection;
  const locations = offeredLocations(capabilities);
  // Without a generator the pictures keep the clothes of the selfies: there is no outfit to choose.
  const complete = Boolean(location && (outfit || !capabilities.newOutfits));
  return (
    <section className="step">
      <StepHeader title={t('order.refinement.title')} subtitle={t('order.refinement.subtitle')} />
      <RefinementChoices
        kind="location"
        title={t('order.refinement.locationTitle')}
        options={locations}
        columns={locations.length === 3 ? 'three' : 'two'}
        selected={location}
        onSelect={(key) => {
          select({ location: key });
          setShowRequired(false);
        }}
      />
      {capabilities.newOutfits && (
        <RefinementChoices
          kind="outfit"
          title={t('order.refinement.outfitTitle')}
          options={OUTFITS}
          columns="three"
          selected={outfit}
          onSelect={(key) => {
            select({ outfit: key });
            setShowRequired(false);
          }}
        />
      )}
      {showRequired && !complete && (
        <p className="alert alert--error" role="alert">
          {t('order.refinement.required')}
        </p>
      )}
      <StepNav
        back="/order/package"
        nextDisabled={!complete}
        onNext={() => {
          if (!complete) setShowRequired(true);
          else navigate('/order/summary');
        }}
      />
    </section>
  );
}

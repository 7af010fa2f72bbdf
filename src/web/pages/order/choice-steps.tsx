// The steps that are one choice each: gender, style, package and refinement (location, and the outfit
// where a generator can make one).
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { offeredLocations } from '../../../domain/capabilities.js';
import { BASE_STYLES, GENDERS, OUTFITS, PACKAGES, PACKAGE_KEYS } from '../../../domain/catalog.js';
import { formatMoney } from '../../../domain/money.js';
import { useAppData } from '../../app-data.js';
import { useI18n } from '../../lib/i18n.js';
import { StepHeader, StepNav } from './order-layout.js';
import { useWizard } from './wizard-state.js';
import { trackEvent } from '../../lib/metrics.js';
import { ChoiceButton } from './choice-button.js';

export function GenderStep() {
  const { t } = useI18n();
  const { state, select } = useWizard();
  const navigate = useNavigate();
  return (
    <section className="step">
      <StepHeader title={t('order.gender.title')} subtitle={t('order.gender.subtitle')} />
      <div className="choices choices--three" role="group" aria-label={t('order.gender.title')}>
        {GENDERS.map((gender) => (
          <ChoiceButton
            key={gender}
            testId={`gender-${gender}`}
            selected={state.selection.gender === gender}
            title={t(`catalog.genders.${gender}`)}
            onClick={() => {
              select({ gender });
              navigate('/order/upload');
            }}
          />
        ))}
      </div>
    </section>
  );
}

export function StyleStep() {
  const { t } = useI18n();
  const { state, select } = useWizard();
  const navigate = useNavigate();
  return (
    <section className="step">
      <StepHeader title={t('order.style.title')} subtitle={t('order.style.subtitle')} />
      <div className="choices choices--three" role="group" aria-label={t('order.style.title')}>
        {BASE_STYLES.map((style) => (
          <ChoiceButton
            key={style}
            testId={`style-${style}`}
            selected={state.selection.style === style}
            title={t(`catalog.styles.${style}.name`)}
            description={t(`catalog.styles.${style}.description`)}
            onClick={() => {
              select({ style });
              navigate('/order/package');
            }}
          />
        ))}
      </div>
      <StepNav back="/order/upload" />
    </section>
  );
}

export function PackageStep() {
  const { t } = useI18n();
  const { catalog } = useAppData();
  const { state, select } = useWizard();
  const navigate = useNavigate();
  return (
    <section className="step">
      <StepHeader title={t('order.package.title')} subtitle={t('order.package.subtitle')} />
      <div className="choices choices--three" role="group" aria-label={t('order.package.title')}>
        {PACKAGE_KEYS.map((key) => {
          const view = catalog.packages.find((p) => p.key === key)!;
          return (
            <ChoiceButton
              key={key}
              testId={`package-${key}`}
              selected={state.selection.package === key}
              badge={view.popular ? t('home.pricing.popular') : undefined}
              title={t(`catalog.packages.${key}.name`)}
              description={t(`catalog.packages.${key}.description`)}
              extra={
                <span className="choice__price">
                  <strong>{formatMoney(view.priceCents)}</strong>
                  {view.priceCents < view.listPriceCents && <s>{formatMoney(view.listPriceCents)}</s>}
                  <span className="choice__meta">
                    {t('home.pricing.photos', { n: view.imageCount })} · {t('home.pricing.delivery', { hours: view.deliveryHours })}
                  </span>
                </span>
              }
              onClick={() => {
                // Extras the new package does not offer are dropped; location and outfit only matter with refinement.
                const extras = state.selection.extras.filter((e) => view.offeredExtras.includes(e));
                select({ package: key, extras });
                trackEvent('package_selected', key);
                navigate(PACKAGES[key].hasRefinement ? '/order/refinement' : '/order/summary');
              }}
            />
          );
        })}
      </div>
      <p className="step__note" data-testid="business-hours">
        {t('common.businessHoursRule')}
      </p>
      <StepNav back="/order/style" />
    </section>
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
      <h2 className="step__subheading" id="location-heading">
        {t('order.refinement.locationTitle')}
      </h2>
      <div className={`choices choices--${locations.length === 3 ? 'three' : 'two'}`} role="group" aria-labelledby="location-heading">
        {locations.map((key) => (
          <ChoiceButton
            key={key}
            testId={`location-${key}`}
            selected={location === key}
            title={t(`catalog.locations.${key}.name`)}
            description={t(`catalog.locations.${key}.description`)}
            onClick={() => {
              select({ location: key });
              setShowRequired(false);
            }}
          />
        ))}
      </div>
      {capabilities.newOutfits && (
        <>
          <h2 className="step__subheading" id="outfit-heading">
            {t('order.refinement.outfitTitle')}
          </h2>
          <div className="choices choices--three" role="group" aria-labelledby="outfit-heading">
            {OUTFITS.map((key) => (
              <ChoiceButton
                key={key}
                testId={`outfit-${key}`}
                selected={outfit === key}
                title={t(`catalog.outfits.${key}.name`)}
                description={t(`catalog.outfits.${key}.description`)}
                onClick={() => {
                  select({ outfit: key });
                  setShowRequired(false);
                }}
              />
            ))}
          </div>
        </>
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

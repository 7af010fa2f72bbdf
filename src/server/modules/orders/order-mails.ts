// Customer e-mails of the order flow (decisions.md sections 4 and 7): the order confirmation sent
// when the contract is formed, the payment confirmation, the failed-payment notice and the notice
// that the finished photos are ready to download. Each renders
// HTML and a plain-text version in the customer's language. Catalogue names come from the i18n
// catalogues; everything else a customer reads here lives in MAIL_TEXTS below.
import { OUTPUT_DPI, PACKAGES, RETENTION, type Language } from '../../../domain/catalog.js';
import { SHOP_TIME_ZONE, formatDate, formatMoney, localeFor } from '../../../domain/money.js';
import { ALL_MESSAGES } from '../../../i18n/all-messages.js';
import { translate } from '../../../i18n/messages.js';

type ExtraName = 'extra_variants' | 'express_delivery';

export interface OrderMailData {
  language: Language;
  orderNumber: string;
  email: string;
  package: 'basic' | 'pro' | 'premium';
  style: 'professional' | 'casual' | 'creative' | null;
  location: 'office' | 'studio' | 'creative' | null;
  outfit: 'business' | 'smart_casual' | 'casual' | null;
  /** Whether the pictures can show new outfits (a generator makes them); else no outfit is promised. */
  newOutfits: boolean;
  gender: 'male' | 'female' | 'diverse' | null;
  extras: ExtraName[];
  /** Uploaded selfies. */
  photoCount: number;
  prices: {
    packageListCents: number;
    discountPercent: number;
    discountCents: number;
    packageCents: number;
    extras: { key: ExtraName; cents: number }[];
    netCents: number;
    vatCents: number;
    vatRatePercent: number;
    grossCents: number;
  };
  /** The package's delivery time in hours, 6 with express. */
  deliveryHours: number;
  /** The invoice PDF (signed link), in the payment confirmation. */
  invoiceUrl?: string | null;
  /** Images the customer will get. */
  resultCount: number;
  orderedAt: Date;
  paidAt: Date | null;
  /** The exact consent text the customer ticked, with its version. */
  waiver: { acceptedAt: Date; textVersion: string; text: string } | null;
  /** Signed link to the order status page. */
  statusUrl: string;
  /** AGB. */
  termsUrl: string;
  privacyUrl: string;
  /** The "Vertrag widerrufen" page (§ 356a BGB). */
  withdrawalUrl: string;
  site: { name: string; legalName: string; supportEmail: string; address: string | null; phone: string | null };
}

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  template: string;
}

type TemplateName = 'order-received' | 'payment-confirmed' | 'payment-failed' | 'photos-ready';
type DeliveryMode = 'standard' | 'express' | 'expressIncluded';

interface MailTexts {
  greeting: string;
  signOff: string;
  team: (site: string) => string;
  subject: Record<TemplateName, (orderNumber: string) => string>;
  /** The final checkout button, quoted in the order confirmation. */
  orderButton: string;
  hours: (n: number) => string;
  selfies: (n: number) => string;
  /** Finished images, with their count. */
  photos: (n: number) => string;
  none: string;
  summary: {
    heading: string;
    orderNumber: string;
    orderedAt: string;
    email: string;
    package: string;
    scope: string;
    uploads: string;
    gender: string;
    style: string;
    location: string;
    outfit: string;
    extras: string;
    delivery: string;
    deliveryValue: (hours: string, mode: DeliveryMode, expressName: string) => string;
  };
  features: {
    photos: (n: number, dpi: number) => string;
    outfits: (n: number) => string;
    backgrounds: (n: number) => string;
    colourAdjustment: string;
    commercialLicence: string;
  };
  prices: { heading: string; discount: (percent: number) => string; net: string; vat: (ratePercent: number) => string; total: string };
  status: { heading: string; intro: string; button: string; personal: string };
  fallbackLink: string;
  withdrawal: {
    heading: string;
    rightHeading: string;
    right: string;
    how: (p: { contact: string; support: string; online: string }) => string;
    consequencesHeading: string;
    consequences: string;
    expiryHeading: string;
    expiry: string;
  };
  waiver: { heading: string; recorded: (p: { dateTime: string; version: string }) => string; none: string };
  terms: { text: string; link: string };
  footer: { sentTo: (p: { email: string; site: string }) => string; terms: string; privacy: string; phone: string; email: string };
  received: {
    preheader: (orderNumber: string) => string;
    intro: (p: { site: string; button: string; dateTime: string }) => string;
    pendingHeading: string;
    pending: string;
  };
  confirmed: {
    preheader: (orderNumber: string) => string;
    intro: string;
    paidAmount: string;
    paidAt: string;
    nextHeading: string;
    next: (p: { results: number; selfies: string; delivery: string }) => string[];
    goodToKnowHeading: string;
    retouch: (days: number) => string;
    deletion: (days: number) => string;
    contractNote: string;
    invoice: string;
    invoiceButton: string;
  };
  failed: {
    preheader: (orderNumber: string) => string;
    intro: (orderNumber: string) => string;
    reasons: string;
    retryButton: string;
    afterPayment: string;
    help: (support: string) => string;
  };
  ready: {
    preheader: (orderNumber: string) => string;
    intro: (p: { orderNumber: string; photos: string }) => string;
    checked: string;
    downloadHeading: string;
    download: string;
    button: string;
    deletionHeading: string;
    deletion: (date: string) => string;
    revisionHeading: string;
    revision: (date: string) => string;
    help: (p: { support: string; orderNumber: string }) => string;
  };
}

const MAIL_TEXTS: Record<Language, MailTexts> = {
  de: {
    greeting: 'Guten Tag,',
    signOff: 'Freundliche Grüße',
    team: (site) => `Ihr Team von ${site}`,
    subject: {
      'order-received': (n) => `Bestellbestätigung für Ihre Bestellung ${n}`,
      'payment-confirmed': (n) => `Zahlung erhalten – Ihre Bestellung ${n}`,
      'payment-failed': (n) => `Zahlung nicht erfolgt – Ihre Bestellung ${n}`,
      'photos-ready': (n) => `Ihre Fotos sind fertig – Bestellung ${n}`,
    },
    orderButton: 'Zahlungspflichtig bestellen',
    hours: (n) => (n === 1 ? '1 Stunde' : `${n} Stunden`),
    selfies: (n) => (n === 1 ? '1 Selfie' : `${n} Selfies`),
    photos: (n) => (n === 1 ? '1 Bewerbungsfoto' : `${n} Bewerbungsfotos`),
    none: 'keine',
    summary: {
      heading: 'Ihre Bestellung',
      orderNumber: 'Bestellnummer',
      orderedAt: 'Bestellt am',
      email: 'E-Mail-Adresse',
      package: 'Paket',
      scope: 'Leistungsumfang',
      uploads: 'Hochgeladene Fotos',
      gender: 'Geschlecht',
      style: 'Stil',
      location: 'Hintergrund',
      outfit: 'Outfit',
      extras: 'Extras',
      delivery: 'Lieferzeit',
      deliveryValue: (hours, mode, express) =>
        `innerhalb von ${hours} ab Zahlungseingang` +
        (mode === 'express' ? ` (${express})` : mode === 'expressIncluded' ? ` (${express} inklusive)` : ''),
    },
    features: {
      photos: (n, dpi) => `${n} Bewerbungsfotos in ${dpi} DPI`,
      outfits: (n) => (n === 1 ? '1 Outfit' : `bis zu ${n} Outfits`),
      backgrounds: (n) => (n === 1 ? '1 Hintergrund' : `${n} Hintergründe`),
      colourAdjustment: 'Farbanpassung',
      commercialLicence: 'kommerzielle Lizenz',
    },
    prices: {
      heading: 'Preise',
      discount: (p) => `Aktionsrabatt ${p} %`,
      net: 'Nettobetrag',
      vat: (r) => `${r} % MwSt.`,
      total: 'Gesamtbetrag inkl. MwSt.',
    },
    status: {
      heading: 'Ihr Bestellstatus',
      intro: 'Den aktuellen Stand Ihrer Bestellung sehen Sie jederzeit auf Ihrer persönlichen Statusseite:',
      button: 'Bestellstatus ansehen',
      personal: 'Dieser Link ist persönlich und öffnet Ihre Bestellung ohne Anmeldung. Bitte geben Sie ihn nicht weiter.',
    },
    fallbackLink: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diesen Link in Ihren Browser:',
    withdrawal: {
      heading: 'Widerrufsbelehrung',
      rightHeading: 'Widerrufsrecht',
      right:
        'Als Verbraucher haben Sie das Recht, binnen vierzehn Tagen ohne Angabe von Gründen diesen Vertrag zu widerrufen. ' +
        'Die Widerrufsfrist beträgt vierzehn Tage ab dem Tag des Vertragsabschlusses.',
      how: ({ contact, support, online }) =>
        `Um Ihr Widerrufsrecht auszuüben, müssen Sie uns (${contact}) mittels einer eindeutigen Erklärung über Ihren Entschluss, ` +
        `diesen Vertrag zu widerrufen, informieren – zum Beispiel per E-Mail an ${support} oder mit einem Brief. ` +
        `Sie können den Widerruf auch auf unserer Webseite mit „Vertrag widerrufen" elektronisch erklären (${online}); ` +
        'dann bestätigen wir Ihnen den Eingang unverzüglich per E-Mail. ' +
        'Zur Wahrung der Widerrufsfrist reicht es aus, dass Sie die Mitteilung über ' +
        'die Ausübung des Widerrufsrechts vor Ablauf der Widerrufsfrist absenden.',
      consequencesHeading: 'Folgen des Widerrufs',
      consequences:
        'Wenn Sie diesen Vertrag widerrufen, haben wir Ihnen alle Zahlungen, die wir von Ihnen erhalten haben, unverzüglich und ' +
        'spätestens binnen vierzehn Tagen ab dem Tag zurückzuzahlen, an dem die Mitteilung über Ihren Widerruf dieses Vertrags bei ' +
        'uns eingegangen ist. Für diese Rückzahlung verwenden wir dasselbe Zahlungsmittel, das Sie bei der ursprünglichen Transaktion ' +
        'eingesetzt haben, es sei denn, mit Ihnen wurde ausdrücklich etwas anderes vereinbart; in keinem Fall werden Ihnen wegen ' +
        'dieser Rückzahlung Entgelte berechnet. Haben Sie verlangt, dass die Dienstleistung während der Widerrufsfrist beginnen soll, ' +
        'so haben Sie uns einen angemessenen Betrag zu zahlen, der dem Anteil der bis zu dem Zeitpunkt, zu dem Sie uns von der ' +
        'Ausübung des Widerrufsrechts hinsichtlich dieses Vertrags unterrichten, bereits erbrachten Dienstleistungen im Vergleich ' +
        'zum Gesamtumfang der im Vertrag vorgesehenen Dienstleistungen entspricht.',
      expiryHeading: 'Vorzeitiges Erlöschen des Widerrufsrechts',
      expiry:
        'Ihr Widerrufsrecht erlischt vorzeitig, wenn wir die Dienstleistung vollständig erbracht haben und Sie vor Beginn der ' +
        'Ausführung ausdrücklich verlangt haben, dass wir vor Ablauf der Widerrufsfrist beginnen, und Sie bestätigt haben, dass ' +
        'Ihnen bekannt ist, dass Sie Ihr Widerrufsrecht bei vollständiger Vertragserfüllung verlieren (§ 356 Abs. 4 BGB).',
    },
    waiver: {
      heading: 'Ihre Zustimmung zum vorzeitigen Beginn',
      recorded: ({ dateTime, version }) =>
        `Bei Ihrer Bestellung am ${dateTime} haben Sie der folgenden Erklärung zugestimmt (Textversion ${version}):`,
      none:
        'Zu dieser Bestellung ist keine Zustimmung zum Beginn vor Ablauf der Widerrufsfrist gespeichert. ' +
        'Ihr Widerrufsrecht erlischt daher nicht vorzeitig.',
    },
    terms: { text: 'Für Ihre Bestellung gelten unsere Allgemeinen Geschäftsbedingungen (AGB):', link: 'AGB ansehen' },
    footer: {
      sentTo: ({ email, site }) => `Diese E-Mail wurde an ${email} gesendet, weil Sie bei ${site} bestellt haben.`,
      terms: 'AGB',
      privacy: 'Datenschutz',
      phone: 'Telefon:',
      email: 'E-Mail:',
    },
    received: {
      preheader: (n) => `Ihre Bestellung ${n} ist eingegangen – Vertragsdaten, Preise und Widerrufsbelehrung.`,
      intro: ({ site, button, dateTime }) =>
        `vielen Dank für Ihre Bestellung bei ${site}. Mit Ihrem Klick auf „${button}“ am ${dateTime} ist der Vertrag ` +
        'zustande gekommen. In dieser E-Mail finden Sie alle Vertragsdaten, die Preise und die Widerrufsbelehrung – ' +
        'bitte bewahren Sie sie auf.',
      pendingHeading: 'Zahlung ausstehend',
      pending:
        'Ihre Zahlung ist noch nicht bei uns eingegangen. Sobald sie bestätigt ist, erhalten Sie eine weitere E-Mail und wir ' +
        'beginnen mit Ihren Fotos. Bei Zahlung per Lastschrift kann die Bestätigung einige Werktage dauern.',
    },
    confirmed: {
      preheader: (n) => `Wir haben Ihre Zahlung für die Bestellung ${n} erhalten und beginnen jetzt mit Ihren Fotos.`,
      intro: 'vielen Dank – Ihre Zahlung ist bei uns eingegangen. Wir beginnen jetzt mit Ihren Bewerbungsfotos.',
      paidAmount: 'Bezahlter Betrag',
      paidAt: 'Zahlungseingang',
      nextHeading: 'So geht es weiter',
      next: ({ results, selfies, delivery }) => [
        `Wir erstellen aus Ihren ${selfies} ${results} Bewerbungsfotos.`,
        'Ein Mensch aus unserem Team prüft jedes Foto, bevor Sie es zu sehen bekommen.',
        `Ihre Fotos stehen ${delivery} auf Ihrer Statusseite zum Download bereit.`,
      ],
      goodToKnowHeading: 'Gut zu wissen',
      retouch: (days) =>
        `Kostenlose Nachbesserung: Ist ein Foto nicht so geworden, wie Sie es sich vorstellen, können Sie innerhalb von ${days} Tagen ` +
        'nach Fertigstellung über Ihre Statusseite kostenlos eine Nachbesserung anfordern.',
      deletion: (days) =>
        `Löschung: Ihre hochgeladenen Selfies und Ihre fertigen Fotos löschen wir ${days} Tage nach Fertigstellung der Bestellung. ` +
        'Bitte laden Sie Ihre Fotos bis dahin herunter.',
      contractNote:
        'Zur Erinnerung finden Sie hier noch einmal Ihre Vertragsdaten, die Widerrufsbelehrung und Ihre Zustimmung zum vorzeitigen Beginn.',
      invoice: 'Ihre Rechnung mit ausgewiesener Umsatzsteuer können Sie hier herunterladen; Sie finden sie auch auf Ihrer Statusseite.',
      invoiceButton: 'Rechnung herunterladen (PDF)',
    },
    failed: {
      preheader: (n) => `Die Zahlung für Ihre Bestellung ${n} ist nicht erfolgt. Ihnen wurde nichts berechnet.`,
      intro: (n) => `leider konnte die Zahlung für Ihre Bestellung ${n} nicht abgeschlossen werden. Ihnen wurde dafür nichts berechnet.`,
      reasons:
        'Das kann verschiedene Gründe haben – zum Beispiel hat die Bank die Zahlung abgelehnt oder der Bezahlvorgang wurde nicht ' +
        'abgeschlossen. Ihre Bestellung bleibt gespeichert, und Sie können die Zahlung einfach erneut starten, auch mit einer ' +
        'anderen Zahlungsart:',
      retryButton: 'Zahlung erneut versuchen',
      afterPayment: 'Sobald die Zahlung eingegangen ist, beginnen wir mit Ihren Fotos und bestätigen Ihnen den Zahlungseingang per E-Mail.',
      help: (support) => `Haben Sie Fragen, oder klappt es wieder nicht? Schreiben Sie uns an ${support} – wir helfen Ihnen gern.`,
    },
    ready: {
      preheader: (n) => `Ihre Fotos zur Bestellung ${n} sind fertig und stehen zum Download bereit.`,
      intro: ({ orderNumber, photos }) => `Ihre Fotos zur Bestellung ${orderNumber} sind fertig: Wir haben ${photos} für Sie erstellt.`,
      checked: 'Ein Mensch aus unserem Team hat jedes Foto geprüft, bevor wir es für Sie freigegeben haben.',
      downloadHeading: 'Fotos ansehen und herunterladen',
      download:
        'Auf Ihrer persönlichen Statusseite können Sie alle Fotos ansehen und herunterladen – einzeln oder alle zusammen als ZIP-Datei:',
      button: 'Fotos ansehen und herunterladen',
      deletionHeading: 'Bitte rechtzeitig herunterladen',
      deletion: (date) =>
        `Zum Schutz Ihrer Daten löschen wir Ihre Fotos und Ihre hochgeladenen Selfies am ${date} automatisch. ` +
        'Bitte laden Sie Ihre Fotos vorher herunter – danach ist kein Download mehr möglich.',
      revisionHeading: 'Kostenlose Nachbesserung',
      revision: (date) =>
        'Ist ein Foto nicht so geworden, wie Sie es sich vorstellen? Bis zum ' +
        `${date} können Sie auf Ihrer Statusseite kostenlos eine Nachbesserung anfordern.`,
      help: ({ support, orderNumber }) =>
        `Haben Sie Fragen? Schreiben Sie uns an ${support} und nennen Sie dabei Ihre Bestellnummer ${orderNumber} – wir helfen Ihnen gern.`,
    },
  },

  en: {
    greeting: 'Hello,',
    signOff: 'Kind regards',
    team: (site) => `The ${site} team`,
    subject: {
      'order-received': (n) => `Order confirmation for your order ${n}`,
      'payment-confirmed': (n) => `Payment received – your order ${n}`,
      'payment-failed': (n) => `Payment not completed – your order ${n}`,
      'photos-ready': (n) => `Your photos are ready – order ${n}`,
    },
    orderButton: 'Order with obligation to pay',
    hours: (n) => (n === 1 ? '1 hour' : `${n} hours`),
    selfies: (n) => (n === 1 ? '1 selfie' : `${n} selfies`),
    photos: (n) => (n === 1 ? '1 application photo' : `${n} application photos`),
    none: 'none',
    summary: {
      heading: 'Your order',
      orderNumber: 'Order number',
      orderedAt: 'Ordered on',
      email: 'Email address',
      package: 'Package',
      scope: 'What is included',
      uploads: 'Uploaded photos',
      gender: 'Gender',
      style: 'Style',
      location: 'Background',
      outfit: 'Outfit',
      extras: 'Extras',
      delivery: 'Delivery time',
      deliveryValue: (hours, mode, express) =>
        `within ${hours} of payment` + (mode === 'express' ? ` (${express})` : mode === 'expressIncluded' ? ` (${express} included)` : ''),
    },
    features: {
      photos: (n, dpi) => `${n} application photos at ${dpi} DPI`,
      outfits: (n) => (n === 1 ? '1 outfit' : `up to ${n} outfits`),
      backgrounds: (n) => (n === 1 ? '1 background' : `${n} backgrounds`),
      colourAdjustment: 'colour adjustment',
      commercialLicence: 'commercial licence',
    },
    prices: {
      heading: 'Prices',
      discount: (p) => `Campaign discount ${p}%`,
      net: 'Net amount',
      vat: (r) => `VAT ${r}%`,
      total: 'Total incl. VAT',
    },
    status: {
      heading: 'Your order status',
      intro: 'You can check the current status of your order at any time on your personal status page:',
      button: 'View order status',
      personal: 'This link is personal and opens your order without signing in. Please do not share it.',
    },
    fallbackLink: 'If the button does not work, copy this link into your browser:',
    withdrawal: {
      heading: 'Information on your right of withdrawal',
      rightHeading: 'Right of withdrawal',
      right:
        'As a consumer, you have the right to withdraw from this contract within fourteen days without giving any reason. ' +
        'The withdrawal period expires fourteen days after the day on which the contract was concluded.',
      how: ({ contact, support, online }) =>
        `To exercise the right of withdrawal, you must inform us (${contact}) of your decision to withdraw from this contract by an ` +
        `unequivocal statement – for example by email to ${support} or by letter. ` +
        `You can also declare your withdrawal electronically on our website with "Withdraw from contract" (${online}); ` +
        'we will then acknowledge its receipt by email without delay. ' +
        'To meet the withdrawal deadline, it is sufficient for you to send your communication concerning your ' +
        'exercise of the right of withdrawal before the withdrawal period has expired.',
      consequencesHeading: 'Effects of withdrawal',
      consequences:
        'If you withdraw from this contract, we shall reimburse to you all payments received from you without undue delay and in ' +
        'any event not later than fourteen days from the day on which we are informed about your decision to withdraw from this ' +
        'contract. We will carry out such reimbursement using the same means of payment as you used for the initial transaction, ' +
        'unless you have expressly agreed otherwise; in any event, you will not incur any fees as a result of such reimbursement. ' +
        'If you requested us to begin the performance of the service during the withdrawal period, you shall pay us an amount ' +
        'which is in proportion to what has been provided until you have communicated to us your withdrawal from this contract, ' +
        'in comparison with the full coverage of the contract.',
      expiryHeading: 'Early expiry of the right of withdrawal',
      expiry:
        'Your right of withdrawal expires early once we have fully performed the service, if you expressly asked us, before ' +
        'performance began, to start before the end of the withdrawal period and confirmed that you are aware that you lose your ' +
        'right of withdrawal once the contract has been fully performed (section 356 (4) of the German Civil Code, BGB).',
    },
    waiver: {
      heading: 'Your consent to an early start',
      recorded: ({ dateTime, version }) =>
        `When placing your order on ${dateTime} you agreed to the following statement (text version ${version}):`,
      none:
        'No consent to starting before the end of the withdrawal period is recorded for this order. ' +
        'Your right of withdrawal therefore does not expire early.',
    },
    terms: { text: 'Our general terms and conditions apply to your order:', link: 'View terms and conditions' },
    footer: {
      sentTo: ({ email, site }) => `This email was sent to ${email} because you placed an order with ${site}.`,
      terms: 'Terms and conditions',
      privacy: 'Privacy policy',
      phone: 'Phone:',
      email: 'Email:',
    },
    received: {
      preheader: (n) => `We have received your order ${n} – contract details, prices and withdrawal information.`,
      intro: ({ site, button, dateTime }) =>
        `Thank you for your order with ${site}. By clicking "${button}" on ${dateTime} you concluded the contract. This email ` +
        'contains all contract details, the prices and the information on your right of withdrawal – please keep it.',
      pendingHeading: 'Payment pending',
      pending:
        'We have not received your payment yet. As soon as it is confirmed, you will receive another email and we will start on ' +
        'your photos. For payments by direct debit, the confirmation can take a few working days.',
    },
    confirmed: {
      preheader: (n) => `We have received your payment for order ${n} and are starting on your photos now.`,
      intro: 'Thank you – we have received your payment. We are now starting on your application photos.',
      paidAmount: 'Amount paid',
      paidAt: 'Payment received on',
      nextHeading: 'What happens next',
      next: ({ results, selfies, delivery }) => [
        `We create ${results} application photos from your ${selfies}.`,
        'A member of our team checks every photo before you get to see it.',
        `Your photos will be ready to download on your status page ${delivery}.`,
      ],
      goodToKnowHeading: 'Good to know',
      retouch: (days) =>
        'Free retouching: if a photo has not turned out the way you imagined, you can request a free revision on your status ' +
        `page within ${days} days of completion.`,
      deletion: (days) =>
        `Deletion: we delete your uploaded selfies and your finished photos ${days} days after your order is completed. ` +
        'Please download your photos before then.',
      contractNote: 'For your records, here are your contract details, the withdrawal information and your consent to an early start once more.',
      invoice: 'You can download your invoice, with VAT shown, here; it is also on your status page.',
      invoiceButton: 'Download invoice (PDF)',
    },
    failed: {
      preheader: (n) => `The payment for your order ${n} did not go through. Nothing has been charged.`,
      intro: (n) => `Unfortunately, the payment for your order ${n} could not be completed. Nothing has been charged.`,
      reasons:
        'This can have several causes – for example, the bank declined the payment or the payment process was not completed. ' +
        'Your order remains saved, and you can simply start the payment again, also with a different payment method:',
      retryButton: 'Try the payment again',
      afterPayment: 'As soon as we receive your payment, we will start on your photos and confirm the payment by email.',
      help: (support) => `Any questions, or does it not work again? Write to us at ${support} – we are happy to help.`,
    },
    ready: {
      preheader: (n) => `Your photos for order ${n} are finished and ready to download.`,
      intro: ({ orderNumber, photos }) => `Your photos for order ${orderNumber} are finished: we have created ${photos} for you.`,
      checked: 'A member of our team checked every photo before releasing it to you.',
      downloadHeading: 'View and download your photos',
      download: 'On your personal status page you can view all your photos and download them – individually or all together as a ZIP file:',
      button: 'View and download photos',
      deletionHeading: 'Please download them in time',
      deletion: (date) =>
        `To protect your data, we automatically delete your photos and your uploaded selfies on ${date}. ` +
        'Please download your photos before then – after that, they can no longer be downloaded.',
      revisionHeading: 'Free retouching',
      revision: (date) =>
        `Has a photo not turned out the way you imagined? Until ${date}, you can request free retouching on your status page.`,
      help: ({ support, orderNumber }) =>
        `Any questions? Write to us at ${support}, quoting your order number ${orderNumber} – we are happy to help.`,
    },
  },

  // Spanish addresses the customer with "tú", like the shop's Spanish interface.
  es: {
    greeting: 'Hola:',
    signOff: 'Un cordial saludo',
    team: (site) => `El equipo de ${site}`,
    subject: {
      'order-received': (n) => `Confirmación de tu pedido ${n}`,
      'payment-confirmed': (n) => `Pago recibido – tu pedido ${n}`,
      'payment-failed': (n) => `Pago no completado – tu pedido ${n}`,
      'photos-ready': (n) => `Tus fotos están listas – pedido ${n}`,
    },
    orderButton: 'Pedido con obligación de pago',
    hours: (n) => (n === 1 ? '1 hora' : `${n} horas`),
    selfies: (n) => (n === 1 ? '1 selfie' : `${n} selfies`),
    photos: (n) => (n === 1 ? '1 foto profesional' : `${n} fotos profesionales`),
    none: 'ninguno',
    summary: {
      heading: 'Tu pedido',
      orderNumber: 'Número de pedido',
      orderedAt: 'Fecha del pedido',
      email: 'Correo electrónico',
      package: 'Paquete',
      scope: 'Qué incluye',
      uploads: 'Fotos subidas',
      gender: 'Género',
      style: 'Estilo',
      location: 'Fondo',
      outfit: 'Vestuario',
      extras: 'Extras',
      delivery: 'Plazo de entrega',
      deliveryValue: (hours, mode, express) =>
        `en un plazo de ${hours} desde la recepción del pago` +
        (mode === 'express' ? ` (${express})` : mode === 'expressIncluded' ? ` (${express} incluida)` : ''),
    },
    features: {
      photos: (n, dpi) => `${n} fotos profesionales a ${dpi} ppp`,
      outfits: (n) => (n === 1 ? '1 vestuario' : `hasta ${n} vestuarios`),
      backgrounds: (n) => (n === 1 ? '1 fondo' : `${n} fondos`),
      colourAdjustment: 'ajuste de color',
      commercialLicence: 'licencia comercial',
    },
    prices: {
      heading: 'Precios',
      discount: (p) => `Descuento de campaña ${p} %`,
      net: 'Importe neto',
      vat: (r) => `IVA ${r} %`,
      total: 'Total IVA incluido',
    },
    status: {
      heading: 'Estado de tu pedido',
      intro: 'Puedes consultar en cualquier momento el estado de tu pedido en tu página de estado personal:',
      button: 'Ver estado del pedido',
      personal: 'Este enlace es personal y abre tu pedido sin iniciar sesión. Por favor, no lo compartas.',
    },
    fallbackLink: 'Si el botón no funciona, copia este enlace en tu navegador:',
    withdrawal: {
      heading: 'Información sobre el derecho de desistimiento',
      rightHeading: 'Derecho de desistimiento',
      right:
        'Como consumidor, tienes derecho a desistir del presente contrato en un plazo de catorce días naturales sin necesidad de ' +
        'justificación. El plazo de desistimiento expirará a los catorce días naturales del día de la celebración del contrato.',
      how: ({ contact, support, online }) =>
        `Para ejercer el derecho de desistimiento, deberás notificarnos (${contact}) tu decisión de desistir del contrato a través ` +
        `de una declaración inequívoca, por ejemplo por correo electrónico a ${support} o por carta. ` +
        `También puedes declarar el desistimiento electrónicamente en nuestro sitio web con «Desistir del contrato» (${online}); ` +
        'en ese caso te confirmaremos sin demora su recepción por correo electrónico. ' +
        'Para cumplir el plazo de desistimiento, basta con que la comunicación ' +
        'relativa al ejercicio de este derecho sea enviada antes de que venza el plazo correspondiente.',
      consequencesHeading: 'Consecuencias del desistimiento',
      consequences:
        'En caso de desistimiento, te devolveremos todos los pagos recibidos de ti sin ninguna demora indebida y, en todo caso, a ' +
        'más tardar catorce días naturales a partir de la fecha en la que se nos informe de tu decisión de desistir del presente ' +
        'contrato. Procederemos a efectuar dicho reembolso utilizando el mismo medio de pago empleado por ti para la transacción ' +
        'inicial, a no ser que hayas dispuesto expresamente lo contrario; en todo caso, no incurrirás en ningún gasto como ' +
        'consecuencia del reembolso. Si nos pediste que comenzáramos la prestación del servicio durante el plazo de desistimiento, ' +
        'deberás abonarnos un importe proporcional a la parte ya prestada del servicio en el momento en que nos hayas comunicado ' +
        'el desistimiento, en relación con el objeto total del contrato.',
      expiryHeading: 'Extinción anticipada del derecho de desistimiento',
      expiry:
        'Tu derecho de desistimiento se extingue anticipadamente cuando hayamos prestado el servicio por completo, si antes del ' +
        'inicio de la ejecución nos pediste expresamente que empezáramos antes de que terminara el plazo de desistimiento y ' +
        'confirmaste que eras consciente de que pierdes tu derecho de desistimiento una vez ejecutado completamente el contrato ' +
        '(artículo 356, apartado 4, del Código Civil alemán, BGB).',
    },
    waiver: {
      heading: 'Tu consentimiento para el inicio anticipado',
      recorded: ({ dateTime, version }) =>
        `Al realizar tu pedido el ${dateTime} aceptaste la siguiente declaración (versión del texto ${version}):`,
      none:
        'Para este pedido no consta ningún consentimiento para empezar antes de que termine el plazo de desistimiento. ' +
        'Por tanto, tu derecho de desistimiento no se extingue anticipadamente.',
    },
    terms: { text: 'A tu pedido se aplican nuestras condiciones generales de contratación:', link: 'Ver condiciones generales' },
    footer: {
      sentTo: ({ email, site }) => `Este correo se ha enviado a ${email} porque has realizado un pedido en ${site}.`,
      terms: 'Condiciones generales',
      privacy: 'Política de privacidad',
      phone: 'Teléfono:',
      email: 'Correo electrónico:',
    },
    received: {
      preheader: (n) => `Hemos recibido tu pedido ${n}: datos del contrato, precios e información sobre el desistimiento.`,
      intro: ({ site, button, dateTime }) =>
        `Gracias por tu pedido en ${site}. Con tu clic en «${button}» el ${dateTime} se celebró el contrato. En este correo ` +
        'encontrarás todos los datos del contrato, los precios y la información sobre el derecho de desistimiento; guárdalo, por favor.',
      pendingHeading: 'Pago pendiente',
      pending:
        'Todavía no hemos recibido tu pago. En cuanto se confirme, recibirás otro correo y empezaremos con tus fotos. Si pagas ' +
        'mediante domiciliación bancaria, la confirmación puede tardar algunos días hábiles.',
    },
    confirmed: {
      preheader: (n) => `Hemos recibido el pago de tu pedido ${n} y empezamos ya con tus fotos.`,
      intro: 'Gracias: hemos recibido tu pago. Ahora empezamos con tus fotos profesionales.',
      paidAmount: 'Importe pagado',
      paidAt: 'Fecha del pago',
      nextHeading: 'Próximos pasos',
      next: ({ results, selfies, delivery }) => [
        `A partir de tus ${selfies} creamos ${results} fotos profesionales.`,
        'Una persona de nuestro equipo revisa cada foto antes de que la veas.',
        `Tus fotos estarán listas para descargar en tu página de estado ${delivery}.`,
      ],
      goodToKnowHeading: 'Información útil',
      retouch: (days) =>
        'Retoque gratuito: si una foto no ha quedado como esperabas, puedes solicitar un retoque gratuito desde tu página de ' +
        `estado en los ${days} días siguientes a la finalización.`,
      deletion: (days) =>
        `Eliminación: borramos tus selfies y tus fotos terminadas ${days} días después de finalizar el pedido. ` +
        'Descarga tus fotos antes de esa fecha.',
      contractNote:
        'Para que los tengas a mano, aquí tienes de nuevo los datos del contrato, la información sobre el desistimiento y tu ' +
        'consentimiento para el inicio anticipado.',
      invoice: 'Puedes descargar aquí tu factura con el IVA desglosado; también la encontrarás en tu página de estado.',
      invoiceButton: 'Descargar factura (PDF)',
    },
    failed: {
      preheader: (n) => `El pago de tu pedido ${n} no se ha completado. No se te ha cobrado nada.`,
      intro: (n) => `Lamentablemente, no se ha podido completar el pago de tu pedido ${n}. No se te ha cobrado nada.`,
      reasons:
        'Puede deberse a varios motivos: por ejemplo, el banco rechazó el pago o el proceso de pago no se completó. Tu pedido ' +
        'sigue guardado y puedes volver a iniciar el pago fácilmente, también con otro método de pago:',
      retryButton: 'Reintentar el pago',
      afterPayment: 'En cuanto recibamos el pago, empezaremos con tus fotos y te confirmaremos el pago por correo electrónico.',
      help: (support) => `¿Tienes preguntas o vuelve a fallar? Escríbenos a ${support}; te ayudaremos con gusto.`,
    },
    ready: {
      preheader: (n) => `Tus fotos del pedido ${n} están terminadas y listas para descargar.`,
      intro: ({ orderNumber, photos }) => `Tus fotos del pedido ${orderNumber} están terminadas: hemos creado ${photos} para ti.`,
      checked: 'Una persona de nuestro equipo ha revisado cada foto antes de ponerla a tu disposición.',
      downloadHeading: 'Ver y descargar tus fotos',
      download:
        'En tu página de estado personal puedes ver todas tus fotos y descargarlas, una a una o todas juntas en un archivo ZIP:',
      button: 'Ver y descargar las fotos',
      deletionHeading: 'Descárgalas a tiempo',
      deletion: (date) =>
        `Para proteger tus datos, el ${date} eliminaremos automáticamente tus fotos y los selfies que subiste. ` +
        'Descarga tus fotos antes de esa fecha: después ya no podrás descargarlas.',
      revisionHeading: 'Retoque gratuito',
      revision: (date) =>
        `¿Alguna foto no ha quedado como esperabas? Hasta el ${date} puedes solicitar un retoque gratuito desde tu página de estado.`,
      help: ({ support, orderNumber }) =>
        `¿Tienes preguntas? Escríbenos a ${support} e indica tu número de pedido ${orderNumber}; te ayudaremos con gusto.`,
    },
  },
};

// ---------------------------------------------------------------------------------------------
// A mail is a list of blocks, rendered once as HTML and once as plain text, so both versions
// always say the same thing.

type Block =
  | { kind: 'heading'; text: string }
  | { kind: 'subheading'; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'rows'; rows: { label: string; value: string; strong?: boolean }[]; amounts?: boolean }
  | { kind: 'list'; items: string[]; ordered?: boolean }
  | { kind: 'quote'; text: string }
  | { kind: 'button'; label: string; url: string; fallback: string }
  | { kind: 'link'; label: string; url: string };

interface Layout {
  language: Language;
  subject: string;
  preheader: string;
  siteName: string;
  blocks: Block[];
  footer: { lines: string[]; links: { label: string; url: string }[]; mailto: { label: string; address: string } | null };
}

function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Escapes and keeps the line breaks of multi-line values (addresses, consent texts). */
function escapeLines(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, '<br>');
}

/** Only web and mail links become clickable; anything else is shown as text. */
function safeHref(url: string): string | null {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' || protocol === 'mailto:' ? url : null;
  } catch {
    return null;
  }
}

const FONT = 'font-family:Arial,Helvetica,sans-serif;';
const TEXT_STYLE = `${FONT}font-size:15px;line-height:1.5;color:#1f2937;`;
const LINK_STYLE = 'color:#1d4ed8;text-decoration:underline;word-break:break-all;';

function htmlLink(url: string, label = url): string {
  const href = safeHref(url);
  return href === null ? escapeHtml(label) : `<a href="${escapeHtml(href)}" style="${LINK_STYLE}">${escapeHtml(label)}</a>`;
}

function htmlBlock(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `<h2 style="margin:28px 0 10px;${FONT}font-size:18px;line-height:1.3;color:#111827;">${escapeHtml(block.text)}</h2>`;
    case 'subheading':
      return `<p style="margin:16px 0 4px;${TEXT_STYLE}font-weight:bold;">${escapeHtml(block.text)}</p>`;
    case 'paragraph':
      return `<p style="margin:0 0 12px;${TEXT_STYLE}">${escapeLines(block.text)}</p>`;
    case 'rows': {
      const rows = block.rows
        .map(({ label, value, strong }) => {
          const weight = strong ? 'font-weight:bold;' : '';
          const cell = `padding:7px 0;border-bottom:1px solid #e5e7eb;vertical-align:top;${TEXT_STYLE}${weight}`;
          const valueAlign = block.amounts ? 'text-align:right;white-space:nowrap;' : 'text-align:left;';
          return (
            `<tr><td style="${cell}padding-right:12px;${block.amounts ? '' : 'width:40%;'}">${escapeHtml(label)}</td>` +
            `<td style="${cell}${valueAlign}">${escapeLines(value)}</td></tr>`
          );
        })
        .join('');
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="border-collapse:collapse;margin:0 0 16px;">${rows}</table>`;
    }
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      const items = block.items.map((item) => `<li style="margin:0 0 6px;">${escapeHtml(item)}</li>`).join('');
      return `<${tag} style="margin:0 0 12px;padding-left:22px;${TEXT_STYLE}">${items}</${tag}>`;
    }
    case 'quote':
      return (
        `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;"><tr>` +
        `<td style="border-left:4px solid #1d4ed8;background:#f3f4f6;padding:12px 16px;${TEXT_STYLE}font-style:italic;">` +
        `${escapeLines(block.text)}</td></tr></table>`
      );
    case 'button': {
      const href = safeHref(block.url);
      if (href === null) return `<p style="margin:0 0 12px;${TEXT_STYLE}">${escapeHtml(block.label)}: ${escapeHtml(block.url)}</p>`;
      return (
        `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 12px;"><tr>` +
        `<td style="border-radius:6px;background:#1d4ed8;">` +
        `<a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 22px;${FONT}font-size:15px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;">` +
        `${escapeHtml(block.label)}</a></td></tr></table>` +
        `<p style="margin:0 0 12px;${FONT}font-size:13px;line-height:1.5;color:#6b7280;">${escapeHtml(block.fallback)}<br>${htmlLink(block.url)}</p>`
      );
    }
    case 'link':
      return `<p style="margin:0 0 12px;${TEXT_STYLE}">${escapeHtml(block.label)}<br>${htmlLink(block.url)}</p>`;
  }
}

function renderHtml(layout: Layout): string {
  const body = layout.blocks.map(htmlBlock).join('\n');
  const small = `${FONT}font-size:12px;line-height:1.5;color:#6b7280;`;
  const footerLines = layout.footer.lines.map((line) => `<p style="margin:0 0 6px;${small}">${escapeLines(line)}</p>`).join('');
  const { mailto: contact } = layout.footer;
  const mailto = contact
    ? `<p style="margin:0 0 6px;${small}">${escapeHtml(contact.label)} ${htmlLink(`mailto:${contact.address}`, contact.address)}</p>`
    : '';
  const links = layout.footer.links.map((link) => htmlLink(link.url, link.label)).join(' &middot; ');
  return `<!DOCTYPE html>
<html lang="${layout.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(layout.subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;">
<div style="display:none;max-height:0;overflow:hidden;opacity:0;">${escapeHtml(layout.preheader)}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border-radius:8px;">
<tr><td style="padding:20px 28px;border-bottom:1px solid #e5e7eb;${FONT}font-size:20px;font-weight:bold;color:#111827;">${escapeHtml(layout.siteName)}</td></tr>
<tr><td style="padding:24px 28px;">
${body}
</td></tr>
<tr><td style="padding:20px 28px;border-top:1px solid #e5e7eb;background:#f9fafb;border-radius:0 0 8px 8px;">
${footerLines}${mailto}<p style="margin:8px 0 0;${small}">${links}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function textBlock(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `${block.text}\n${'='.repeat(block.text.length)}`;
    case 'subheading':
      return `${block.text}\n${'-'.repeat(block.text.length)}`;
    case 'paragraph':
      return block.text;
    case 'rows':
      return block.rows.map(({ label, value }) => `${label}: ${value.replace(/\r?\n/g, ', ')}`).join('\n');
    case 'list':
      return block.items.map((item, i) => `${block.ordered ? `${i + 1}.` : '-'} ${item}`).join('\n');
    case 'quote':
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'button':
      return `${block.label}:\n${block.url}`;
    case 'link':
      return `${block.label}\n${block.url}`;
  }
}

function renderText(layout: Layout): string {
  const { mailto } = layout.footer;
  const footer = [...layout.footer.lines, ...(mailto ? [`${mailto.label} ${mailto.address}`] : [])];
  const links = layout.footer.links.map((link) => `${link.label}: ${link.url}`);
  // "-- " with its space is the signature delimiter mail clients recognise.
  return `${[...layout.blocks.map(textBlock), ['-- ', ...footer, ...links].join('\n')].join('\n\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// Shared sections.

interface Context {
  data: OrderMailData;
  t: MailTexts;
  name: (key: string) => string;
}

function context(data: OrderMailData): Context {
  const messages = ALL_MESSAGES[data.language];
  return { data, t: MAIL_TEXTS[data.language], name: (key) => translate(messages, `catalog.${key}`) };
}

/** Date and time in the shop's time zone, with the zone's name (MEZ/MESZ, CET/CEST). */
export function formatDateTime(date: Date, language: Language): string {
  return new Intl.DateTimeFormat(localeFor(language), {
    timeZone: SHOP_TIME_ZONE,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

function oneLine(value: string): string {
  return value
    .split(/\r?\n/)
    .map((part) => part.trim())
    .filter(Boolean)
    .join(', ');
}

function deliveryText({ data, t, name }: Context): string {
  const definition = PACKAGES[data.package];
  const mode: DeliveryMode = definition.includesExpress
    ? 'expressIncluded'
    : data.extras.includes('express_delivery')
      ? 'express'
      : 'standard';
  return t.summary.deliveryValue(t.hours(data.deliveryHours), mode, name('extras.express_delivery.name'));
}

function scopeText({ data, t }: Context): string {
  const definition = PACKAGES[data.package];
  const parts = [
    t.features.photos(data.resultCount, OUTPUT_DPI),
    ...(data.newOutfits ? [t.features.outfits(definition.outfits)] : []),
    t.features.backgrounds(definition.backgrounds),
  ];
  if (definition.colourAdjustment) parts.push(t.features.colourAdjustment);
  if (definition.commercialLicense) parts.push(t.features.commercialLicence);
  return parts.join(', ');
}

function extrasText({ data, t, name }: Context): string {
  return data.extras.length === 0 ? t.none : data.extras.map((key) => name(`extras.${key}.name`)).join(', ');
}

function summaryBlocks(ctx: Context, full: boolean): Block[] {
  const { data, t, name } = ctx;
  const s = t.summary;
  const rows: { label: string; value: string }[] = [
    { label: s.orderNumber, value: data.orderNumber },
    { label: s.orderedAt, value: formatDateTime(data.orderedAt, data.language) },
    { label: s.email, value: data.email },
    { label: s.package, value: name(`packages.${data.package}.name`) },
  ];
  if (full) {
    rows.push({ label: s.scope, value: scopeText(ctx) });
    rows.push({ label: s.uploads, value: t.selfies(data.photoCount) });
    if (data.gender) rows.push({ label: s.gender, value: name(`genders.${data.gender}`) });
    if (data.style) rows.push({ label: s.style, value: name(`styles.${data.style}.name`) });
    if (data.location) rows.push({ label: s.location, value: name(`locations.${data.location}.name`) });
    if (data.outfit && data.newOutfits) rows.push({ label: s.outfit, value: name(`outfits.${data.outfit}.name`) });
  }
  rows.push({ label: s.extras, value: extrasText(ctx) });
  rows.push({ label: s.delivery, value: deliveryText(ctx) });
  return [
    { kind: 'heading', text: s.heading },
    { kind: 'rows', rows },
  ];
}

function priceBlocks({ data, t, name }: Context): Block[] {
  const p = data.prices;
  const rows: { label: string; value: string; strong?: boolean }[] = [
    { label: name(`packages.${data.package}.name`), value: formatMoney(p.packageListCents) },
  ];
  if (p.discountCents > 0) rows.push({ label: t.prices.discount(p.discountPercent), value: formatMoney(-p.discountCents) });
  for (const extra of p.extras) rows.push({ label: name(`extras.${extra.key}.name`), value: formatMoney(extra.cents) });
  rows.push({ label: t.prices.net, value: formatMoney(p.netCents) });
  rows.push({ label: t.prices.vat(p.vatRatePercent), value: formatMoney(p.vatCents) });
  rows.push({ label: t.prices.total, value: formatMoney(p.grossCents), strong: true });
  return [
    { kind: 'heading', text: t.prices.heading },
    { kind: 'rows', rows, amounts: true },
  ];
}

function statusBlocks({ data, t }: Context): Block[] {
  return [
    { kind: 'heading', text: t.status.heading },
    { kind: 'paragraph', text: t.status.intro },
    { kind: 'button', label: t.status.button, url: data.statusUrl, fallback: t.fallbackLink },
    { kind: 'paragraph', text: t.status.personal },
  ];
}

function legalBlocks({ data, t }: Context): Block[] {
  const { site } = data;
  const contact = [
    site.legalName,
    site.address ? oneLine(site.address) : null,
    site.phone ? `${t.footer.phone} ${site.phone}` : null,
    `${t.footer.email} ${site.supportEmail}`,
  ]
    .filter((part): part is string => part !== null && part !== '')
    .join(', ');
  const w = t.withdrawal;
  const blocks: Block[] = [
    { kind: 'heading', text: w.heading },
    { kind: 'subheading', text: w.rightHeading },
    { kind: 'paragraph', text: w.right },
    { kind: 'paragraph', text: w.how({ contact, support: site.supportEmail, online: data.withdrawalUrl }) },
    { kind: 'subheading', text: w.consequencesHeading },
    { kind: 'paragraph', text: w.consequences },
    { kind: 'subheading', text: w.expiryHeading },
    { kind: 'paragraph', text: w.expiry },
    { kind: 'heading', text: t.waiver.heading },
  ];
  if (data.waiver) {
    blocks.push(
      {
        kind: 'paragraph',
        text: t.waiver.recorded({ dateTime: formatDateTime(data.waiver.acceptedAt, data.language), version: data.waiver.textVersion }),
      },
      { kind: 'quote', text: data.waiver.text },
    );
  } else {
    blocks.push({ kind: 'paragraph', text: t.waiver.none });
  }
  blocks.push({ kind: 'link', label: t.terms.text, url: data.termsUrl });
  return blocks;
}

function layout(ctx: Context, template: TemplateName, preheader: string, blocks: Block[]): RenderedMail {
  const { data, t } = ctx;
  const { site } = data;
  // The mailer refuses subjects with line breaks; configuration must not be able to cause that.
  const subject = t.subject[template](data.orderNumber).replace(/[\r\n]+/g, ' ');
  const all: Block[] = [
    { kind: 'paragraph', text: t.greeting },
    ...blocks,
    { kind: 'paragraph', text: `${t.signOff}\n${t.team(site.name)}` },
  ];
  const page: Layout = {
    language: data.language,
    subject,
    preheader,
    siteName: site.name,
    blocks: all,
    footer: {
      lines: [
        [site.legalName, site.address ? oneLine(site.address) : null, site.phone ? `${t.footer.phone} ${site.phone}` : null]
          .filter((part): part is string => Boolean(part))
          .join(' · '),
        t.footer.sentTo({ email: data.email, site: site.name }),
      ],
      mailto: { label: t.footer.email, address: site.supportEmail },
      links: [
        { label: t.footer.terms, url: data.termsUrl },
        { label: t.footer.privacy, url: data.privacyUrl },
      ],
    },
  };
  return { subject, html: renderHtml(page), text: renderText(page), template };
}

// ---------------------------------------------------------------------------------------------
// The mails.

/** Sent right after "Zahlungspflichtig bestellen": the contract is formed, payment is pending. */
export function renderOrderReceivedMail(data: OrderMailData): RenderedMail {
  const ctx = context(data);
  const { t } = ctx;
  return layout(ctx, 'order-received', t.received.preheader(data.orderNumber), [
    {
      kind: 'paragraph',
      text: t.received.intro({ site: data.site.name, button: t.orderButton, dateTime: formatDateTime(data.orderedAt, data.language) }),
    },
    { kind: 'heading', text: t.received.pendingHeading },
    { kind: 'paragraph', text: t.received.pending },
    ...summaryBlocks(ctx, true),
    ...priceBlocks(ctx),
    ...statusBlocks(ctx),
    ...legalBlocks(ctx),
  ]);
}

/** Sent once the payment provider confirmed the payment; repeats the contract data (decisions.md 4). */
export function renderPaymentConfirmedMail(data: OrderMailData): RenderedMail {
  const ctx = context(data);
  const { t } = ctx;
  const c = t.confirmed;
  const paid: { label: string; value: string }[] = [{ label: c.paidAmount, value: formatMoney(data.prices.grossCents) }];
  if (data.paidAt) paid.push({ label: c.paidAt, value: formatDateTime(data.paidAt, data.language) });
  return layout(ctx, 'payment-confirmed', c.preheader(data.orderNumber), [
    { kind: 'paragraph', text: c.intro },
    { kind: 'rows', rows: paid },
    ...(data.invoiceUrl ? [{ kind: 'paragraph' as const, text: c.invoice }, { kind: 'button' as const, label: c.invoiceButton, url: data.invoiceUrl, fallback: t.fallbackLink }] : []),
    { kind: 'heading', text: c.nextHeading },
    {
      kind: 'list',
      ordered: true,
      items: c.next({ results: data.resultCount, selfies: t.selfies(data.photoCount), delivery: deliveryText(ctx) }),
    },
    ...statusBlocks(ctx),
    { kind: 'heading', text: c.goodToKnowHeading },
    { kind: 'list', items: [c.retouch(RETENTION.revisionDays), c.deletion(RETENTION.daysAfterCompletion)] },
    { kind: 'paragraph', text: c.contractNote },
    ...summaryBlocks(ctx, true),
    ...priceBlocks(ctx),
    ...legalBlocks(ctx),
  ]);
}

/** The payment did not go through: nothing was charged, here is how to try again. */
export function renderPaymentFailedMail(data: OrderMailData & { retryUrl: string }): RenderedMail {
  const ctx = context(data);
  const { t } = ctx;
  const f = t.failed;
  return layout(ctx, 'payment-failed', f.preheader(data.orderNumber), [
    { kind: 'paragraph', text: f.intro(data.orderNumber) },
    { kind: 'paragraph', text: f.reasons },
    { kind: 'button', label: f.retryButton, url: data.retryUrl, fallback: t.fallbackLink },
    { kind: 'paragraph', text: f.afterPayment },
    ...summaryBlocks(ctx, false),
    ...priceBlocks(ctx),
    ...statusBlocks(ctx),
    { kind: 'paragraph', text: f.help(data.site.supportEmail) },
  ]);
}

/**
 * Sent when the finished photos have been checked by a person and released: where to download them,
 * when they are deleted and until when free retouching can be requested. Dates are the status page's.
 */
export function renderPhotosReadyMail(data: OrderMailData & { resultCount: number; deleteAfter: Date; revisionUntil: Date }): RenderedMail {
  const ctx = context(data);
  const { t } = ctx;
  const r = t.ready;
  return layout(ctx, 'photos-ready', r.preheader(data.orderNumber), [
    { kind: 'paragraph', text: r.intro({ orderNumber: data.orderNumber, photos: t.photos(data.resultCount) }) },
    { kind: 'paragraph', text: r.checked },
    { kind: 'heading', text: r.downloadHeading },
    { kind: 'paragraph', text: r.download },
    { kind: 'button', label: r.button, url: data.statusUrl, fallback: t.fallbackLink },
    { kind: 'paragraph', text: t.status.personal },
    { kind: 'heading', text: r.deletionHeading },
    { kind: 'paragraph', text: r.deletion(formatDate(data.deleteAfter, data.language)) },
    { kind: 'heading', text: r.revisionHeading },
    { kind: 'paragraph', text: r.revision(formatDate(data.revisionUntil, data.language)) },
    { kind: 'paragraph', text: r.help({ support: data.site.supportEmail, orderNumber: data.orderNumber }) },
  ]);
}

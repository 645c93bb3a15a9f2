/** Every UI string of the site, in both languages (page copy lives in content/). */
import { CONSENT_OPERATOR_PLACEHOLDER, CONSENT_TEXT } from '../api/contract/consent.ts';
import type { Building, Lang, Role } from '../api/contract/enums.ts';
import { BRAND } from '../api/contract/brand.ts';

/** The consent sentence lives with its version in the contract; here the operator's name goes in. */
function consentLabel(lang: Lang) {
  const fill = (text: string) => text.replaceAll(CONSENT_OPERATOR_PLACEHOLDER, BRAND.operator.name);
  const { before, link, after } = CONSENT_TEXT[lang];
  return { consentBefore: fill(before), consentLink: fill(link), consentAfter: fill(after) };
}

const en = {
  /** The language's own name, used by the language switch. */
  langName: 'English',
  mainNav: 'Main',
  skip: 'Skip to content',
  home: `${BRAND.product} home`,
  developers: 'Developers',
  footer: {
    nav: 'Site',
    privacy: 'Privacy',
    imprint: 'Imprint',
    developers: 'API guide',
    llms: 'llms.txt',
    markdown: 'This page as Markdown',
  },
  form: {
    email: 'Work e-mail',
    emailHint: 'We write once, when your early access is ready.',
    ...consentLabel('en'),
    role: 'Your role (optional)',
    building: 'What are you building? (optional)',
    noAnswer: 'Prefer not to say',
    honeypot: 'Leave this field empty',
    submit: 'Request early access',
  },
  roles: {
    developer: 'Software developer',
    platform: 'Platform engineer',
    data: 'Data or ML engineer',
    founder: 'Founder or CTO',
    other: 'Something else',
  } satisfies Record<Role, string>,
  building: {
    agents: 'AI agents',
    rag: 'RAG and retrieval',
    research: 'Research',
    extraction: 'Data extraction',
    evaluating: 'Just evaluating',
  } satisfies Record<Building, string>,
  /** Outcome messages of the JS form; `{seconds}` is the Retry-After value. */
  messages: {
    success: 'You are on the list. We will e-mail you once, when early access opens.',
    invalidEmail: 'Please enter a valid e-mail address, such as name@example.com.',
    consentRequired: 'Please tick the box: without your consent we may not store your address.',
    rateLimited: 'Too many attempts from your network. Please try again in {seconds} seconds.',
    rateLimitedSoon: 'Too many attempts from your network. Please try again in a minute.',
    error: 'Something went wrong on our side. Please try again in a moment.',
    /** Announced when a field shows its own error. */
    checkField: 'Please check the marked entries above.',
  },
  cta: {
    heading: 'Get early access',
    text: 'Early-access teams get a free quota, a direct line to the engineers, and a say in what we build next.',
  },
};

const de: typeof en = {
  langName: 'Deutsch',
  mainNav: 'Hauptmenü',
  skip: 'Zum Inhalt springen',
  home: `${BRAND.product} Startseite`,
  developers: 'Entwickler',
  footer: {
    nav: 'Website',
    privacy: 'Datenschutz',
    imprint: 'Impressum',
    developers: 'API-Leitfaden',
    llms: 'llms.txt',
    markdown: 'Diese Seite als Markdown',
  },
  form: {
    email: 'Geschäftliche E-Mail-Adresse',
    emailHint: 'Wir schreiben Ihnen einmal, sobald Ihr früher Zugang bereitsteht.',
    ...consentLabel('de'),
    role: 'Ihre Rolle (optional)',
    building: 'Was bauen Sie? (optional)',
    noAnswer: 'Keine Angabe',
    honeypot: 'Dieses Feld bitte leer lassen',
    submit: 'Frühen Zugang anfragen',
  },
  roles: {
    developer: 'Softwareentwicklung',
    platform: 'Plattform-Engineering',
    data: 'Daten und ML',
    founder: 'Gründung oder CTO',
    other: 'Etwas anderes',
  },
  building: {
    agents: 'KI-Agenten',
    rag: 'RAG und Retrieval',
    research: 'Forschung',
    extraction: 'Datenextraktion',
    evaluating: 'Erst einmal umsehen',
  },
  messages: {
    success: 'Sie stehen auf der Liste. Wir schreiben Ihnen einmal, sobald der frühe Zugang startet.',
    invalidEmail: 'Bitte geben Sie eine gültige E-Mail-Adresse ein, etwa name@example.com.',
    consentRequired: 'Bitte setzen Sie das Häkchen: Ohne Ihre Einwilligung dürfen wir Ihre Adresse nicht speichern.',
    rateLimited: 'Zu viele Versuche aus Ihrem Netz. Bitte versuchen Sie es in {seconds} Sekunden erneut.',
    rateLimitedSoon: 'Zu viele Versuche aus Ihrem Netz. Bitte versuchen Sie es in einer Minute erneut.',
    error: 'Bei uns ist etwas schiefgegangen. Bitte versuchen Sie es gleich noch einmal.',
    checkField: 'Bitte prüfen Sie die markierten Angaben oben.',
  },
  cta: {
    heading: 'Frühen Zugang sichern',
    text: 'Teams im frühen Zugang erhalten ein kostenloses Kontingent, einen direkten Draht zu unseren Ingenieuren und Mitsprache bei dem, was wir als Nächstes bauen.',
  },
};

export const UI: Record<Lang, typeof en> = { en, de };

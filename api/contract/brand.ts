/**
 * Product and operator names: the one place they are written. Pages, the OpenAPI document,
 * llms.txt, the discovery documents and the invitation messages read them from here; it sits beside
 * the contract because both the site and the API's generated documents need it, and api/ never
 * imports from site/.
 */
export const BRAND = {
  product: 'Nimbus',
  productLong: 'Nimbus Cloud',
  tagline: {
    en: 'The managed cloud for AI agents and retrieval pipelines.',
    de: 'Die verwaltete Cloud für KI-Agenten und Retrieval-Pipelines.',
  },
  operator: {
    name: 'Nimbus Labs GmbH',
    street: 'Musterstraße 1',
    city: '10115 Berlin',
    country: { en: 'Germany', de: 'Deutschland' },
    register: 'Amtsgericht Berlin-Charlottenburg, HRB 000000',
    vatId: 'DE000000000',
    representative: 'Erika Mustermann',
    email: 'hello@example.org',
    privacyEmail: 'privacy@example.org',
  },
  license: { name: 'Proprietary', url: 'https://example.org/terms' },
} as const;

/**
 * Progressive enhancement of the sign-up forms: send JSON with fetch and show the outcome in
 * place, in the page's language (the messages come from the form's data-msg-* attributes).
 * Without this script the form still works as a plain POST.
 */
import type { ErrorCode } from '../../api/contract/errors.ts';
import { FIELD } from '../lib/signup-fields.ts';

type FieldName = typeof FIELD.email | typeof FIELD.consent;

/** Contract part 7: the 422 codes that belong to one field, and that field. */
const FIELD_ERRORS: Partial<Record<ErrorCode, FieldName>> = {
  invalid_email: FIELD.email,
  consent_required: FIELD.consent,
};
const TOO_MANY_REQUESTS = 429;

function control(form: HTMLFormElement, name: string): HTMLInputElement {
  return form.elements.namedItem(name) as HTMLInputElement;
}

/** The JSON body: empty optional answers are left out, consent is a boolean. */
function payload(form: HTMLFormElement): Record<string, string | boolean> {
  const body: Record<string, string | boolean> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string' && value !== '') body[name] = value;
  }
  body[FIELD.consent] = control(form, FIELD.consent).checked;
  return body;
}

/** Retry-After as whole seconds (delta-seconds or an HTTP-date, RFC 9110 §10.2.3). */
function retryAfterSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(1, Math.ceil((date - Date.now()) / 1000));
}

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : undefined;
  } catch {
    return undefined;
  }
}

function announce(form: HTMLFormElement, message: string, state?: 'success' | 'error'): void {
  const status = form.querySelector<HTMLElement>('[role="status"]')!;
  if (state) status.dataset.state = state;
  else delete status.dataset.state;
  status.textContent = message;
}

function clearErrors(form: HTMLFormElement): void {
  for (const name of Object.values(FIELD_ERRORS)) {
    const input = control(form, name);
    const error = document.getElementById(input.dataset.error!)!;
    input.removeAttribute('aria-invalid');
    input.setAttribute('aria-describedby', (input.getAttribute('aria-describedby') ?? '').replace(error.id, '').trim());
    if (!input.getAttribute('aria-describedby')) input.removeAttribute('aria-describedby');
    error.hidden = true;
    error.textContent = '';
  }
  announce(form, '');
}

function showFieldError(form: HTMLFormElement, name: FieldName, message: string): void {
  const input = control(form, name);
  const error = document.getElementById(input.dataset.error!)!;
  error.textContent = message;
  error.hidden = false;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', `${input.getAttribute('aria-describedby') ?? ''} ${error.id}`.trim());
  input.focus();
}

async function submit(form: HTMLFormElement): Promise<void> {
  const msg = form.dataset;
  const fieldMessages: Partial<Record<ErrorCode, string | undefined>> = {
    invalid_email: msg.msgInvalidEmail,
    consent_required: msg.msgConsentRequired,
  };
  // aria-busy doubles as the guard against a second submit; disabling the button would drop its focus.
  if (form.getAttribute('aria-busy') === 'true') return;
  clearErrors(form);
  form.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(payload(form)),
    });
    if (response.ok) {
      form.reset();
      announce(form, msg.msgSuccess!, 'success');
      return;
    }
    const code = (await errorCode(response)) as ErrorCode | undefined;
    const field = code && FIELD_ERRORS[code];
    if (code && field) {
      showFieldError(form, field, fieldMessages[code]!);
      announce(form, msg.msgCheckField!, 'error');
    } else if (response.status === TOO_MANY_REQUESTS) {
      const seconds = retryAfterSeconds(response.headers.get('Retry-After'));
      announce(form, seconds ? msg.msgRateLimited!.replace('{seconds}', String(seconds)) : msg.msgRateLimitedSoon!, 'error');
    } else {
      announce(form, msg.msgError!, 'error');
    }
  } catch {
    announce(form, msg.msgError!, 'error');
  } finally {
    form.removeAttribute('aria-busy');
  }
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-signup]')) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit(form);
  });
}

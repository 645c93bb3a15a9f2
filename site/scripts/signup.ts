/**
 * Progressive enhancement of the sign-up forms: send JSON with fetch and show the outcome in
 * place, in the page's language (the messages come from the form's data-msg-* attributes).
 * Without this script the form still works as a plain POST.
 */
import { FIELD_ERRORS, fieldsToFix, outcomeOf, signupBody, type FieldName, type Outcome } from './signup-outcome.ts';
import { FIELD } from '../lib/signup-fields.ts';

function control(form: HTMLFormElement, name: string): HTMLInputElement {
  return form.elements.namedItem(name) as HTMLInputElement;
}

function announce(form: HTMLFormElement, message: string, state?: 'success' | 'error'): void {
  const status = form.querySelector<HTMLElement>('[role="status"]')!;
  if (state) status.dataset.state = state;
  else delete status.dataset.state;
  status.textContent = message;
}

/** Shows a field's error (a message) or clears it (none); its own description, the hint, stays first. */
function setFieldError(form: HTMLFormElement, name: FieldName, message?: string): void {
  const input = control(form, name);
  const error = document.getElementById(input.dataset.error!)!;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== error.id);
  if (message) ids.push(error.id);
  if (ids.length) input.setAttribute('aria-describedby', ids.join(' '));
  else input.removeAttribute('aria-describedby');
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  error.textContent = message ?? '';
  error.hidden = !message;
}

function clearErrors(form: HTMLFormElement): void {
  for (const name of Object.values(FIELD_ERRORS)) setFieldError(form, name);
  announce(form, '');
}

/** Marks the fields and moves focus to the first of them. */
function showFieldErrors(form: HTMLFormElement, names: FieldName[]): void {
  for (const name of names) setFieldError(form, name, name === FIELD.email ? form.dataset.msgInvalidEmail! : form.dataset.msgConsentRequired!);
  control(form, names[0]).focus();
  announce(form, form.dataset.msgCheckField!, 'error');
}

function show(form: HTMLFormElement, outcome: Outcome): void {
  const msg = form.dataset;
  switch (outcome.kind) {
    case 'success':
      form.reset();
      announce(form, msg.msgSuccess!, 'success');
      return;
    case 'field':
      showFieldErrors(form, [outcome.field]);
      return;
    case 'rateLimited':
      announce(
        form,
        outcome.seconds ? msg.msgRateLimited!.replace('{seconds}', String(outcome.seconds)) : msg.msgRateLimitedSoon!,
        'error',
      );
      return;
    case 'error':
      announce(form, msg.msgError!, 'error');
  }
}

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body: unknown = await response.json();
    return typeof body === 'object' && body !== null && 'error' in body ? String(body.error) : undefined;
  } catch {
    return undefined;
  }
}

async function submit(form: HTMLFormElement): Promise<void> {
  // aria-busy doubles as the guard against a second submit; disabling the button would drop its focus.
  if (form.getAttribute('aria-busy') === 'true') return;
  clearErrors(form);
  // The browser's own checks (required, type=email, pattern, maxlength), reported with the
  // page's messages: its bubbles would speak the browser's language. The API checks again.
  const toFix = fieldsToFix(control(form, FIELD.email).validity.valid, control(form, FIELD.consent).checked);
  if (toFix.length > 0) return showFieldErrors(form, toFix);
  form.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(form.action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(signupBody(new FormData(form), control(form, FIELD.consent).checked)),
    });
    const code = response.ok ? undefined : await errorCode(response);
    show(form, outcomeOf(response.status, code, response.headers.get('Retry-After'), Date.now()));
  } catch {
    show(form, { kind: 'error' });
  } finally {
    form.removeAttribute('aria-busy');
  }
}

for (const form of document.querySelectorAll<HTMLFormElement>('form[data-signup]')) {
  // The script reports invalid fields itself (submit), in the page's language.
  form.noValidate = true;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void submit(form);
  });
}

/**
 * The list of throwaway mail domains: the curated disposable-email-domains list as the
 * disposable-email-domains-js package ships it (CC0; the choice is in docs/operator.md, "Before you
 * open access"). `npm update` brings its newest list. Read once per process.
 */
import { disposableEmailBlocklistSet } from 'disposable-email-domains-js';

export const DISPOSABLE_DOMAINS: ReadonlySet<string> = disposableEmailBlocklistSet();

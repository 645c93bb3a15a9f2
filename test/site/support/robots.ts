/** RFC 9309 matching, enough to ask "may a crawler fetch this path?" of the site's robots.txt. */
interface Rule {
  allow: boolean;
  pattern: string;
}

function groupsFor(robots: string, agent: string): Rule[] {
  const groups: { agents: string[]; rules: Rule[] }[] = [];
  let current: { agents: string[]; rules: Rule[] } | undefined;
  for (const raw of robots.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, field, value] = match;
    const key = field.toLowerCase();
    if (key === 'user-agent') {
      if (!current || current.rules.length > 0) groups.push((current = { agents: [], rules: [] }));
      current.agents.push(value.toLowerCase());
    } else if ((key === 'allow' || key === 'disallow') && current) {
      if (value !== '') current.rules.push({ allow: key === 'allow', pattern: value });
    }
  }
  const own = groups.filter((g) => g.agents.includes(agent.toLowerCase()));
  return (own.length ? own : groups.filter((g) => g.agents.includes('*'))).flatMap((g) => g.rules);
}

/** `*` matches any sequence and a final `$` anchors the end (RFC 9309 §2.2.3). */
function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`).test(path);
}

/** RFC 9309 §2.2.2: the longest matching rule wins; on a tie, allow wins. */
export function allowed(robots: string, agent: string, path: string): boolean {
  let best: Rule | undefined;
  for (const rule of groupsFor(robots, agent)) {
    if (!matches(rule.pattern, path)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
  }
  return best?.allow ?? true;
}

import { configOrExit } from '../../api/config.ts';
import { openForOperator, type OperatorAccess } from '../../api/sidecar/operator/access.ts';

/** The waitlist on the engine the configuration selects (api/sidecar/operator/access.ts) for `use`, closed after it. */
export async function withStore<T>(intent: 'read' | 'write', use: (access: OperatorAccess) => Promise<T>): Promise<T> {
  const access = await openForOperator(configOrExit(), intent);
  try {
    return await use(access);
  } finally {
    await access.close();
  }
}

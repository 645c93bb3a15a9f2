/**
 * Reading the small operator-owned JSON files (clients, keys): absent → undefined; present but not
 * JSON or not of the schema → StartupError with the caller's advice, and the file is left alone.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { StartupError } from './errors.ts';

export async function readSmallJsonFile<T extends z.ZodType>(path: string, schema: T, corrupt: string): Promise<z.infer<T> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return schema.parse(JSON.parse(text));
  } catch {
    throw new StartupError(corrupt);
  }
}

/** Reads the report page's tables (api/report/html.ts) back as rows of cell texts. */
export function htmlTable(html: string, chart: string): string[][] {
  const table = new RegExp(`<table data-chart="${chart}">([\\s\\S]*?)</table>`).exec(html);
  if (!table) throw new Error(`no table for ${chart}`);
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table[1])![1];
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1].matchAll(/<t[hd][^>]*>([^<]*)<\/t[hd]>/g)].map((cell) => cell[1]));
}

// Makes each committed report's files from its document: <type>.md (linking its charts) and one
// SVG per chart, with typeReportFiles (@basalt/api-client), the function publish-report.test.ts
// writes a new publish with. Run after editing a renderer: node docs/benchmarks/render.mjs
// (after `npm run build -w @basalt/api-client`); a unit test of @basalt/api-client fails while
// the committed files differ from what this makes of the JSON.
import fs from 'node:fs';
import path from 'node:path';
import { typeReportDocumentProblem, typeReportFiles } from '@basalt/api-client';

const DIR = path.dirname(new URL(import.meta.url).pathname);
for (const name of fs.readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
  const doc = JSON.parse(fs.readFileSync(path.join(DIR, name), 'utf8'));
  const problem = typeReportDocumentProblem(doc);
  if (problem) throw new Error(`${name}: ${problem}`);
  const files = typeReportFiles(doc);
  for (const file of files) fs.writeFileSync(path.join(DIR, file.name), file.content);
  console.log(`${name}: ${files.map((f) => f.name).join(', ')}`);
}

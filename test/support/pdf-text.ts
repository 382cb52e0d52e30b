import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

// pdf-parse (pdf.js) loads its worker with a dynamic import(), which Jest's CommonJS
// sandbox cannot do: the text is extracted by a plain Node process instead.
const SCRIPT = `
const { PDFParse } = require('pdf-parse');
const { readFileSync } = require('node:fs');
const parser = new PDFParse({ data: new Uint8Array(readFileSync(process.argv[1])) });
parser.getText().then((r) => { process.stdout.write(r.text); return parser.destroy(); })
  .catch((e) => { console.error(e); process.exit(1); });
`;

/** The text of a PDF, as pdf-parse extracts it. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-text-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const { stdout } = await run(process.execPath, ['-e', SCRIPT, file], { cwd: process.cwd(), timeout: 20_000 });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const SOURCE = join(__dirname, 'baseline-server.ts');

/**
 * Transpiles bench/baseline-server.ts (self-contained: it imports packages only) to plain
 * JavaScript in `outDir` and returns its path. Run it with NODE_PATH pointing at the
 * project's node_modules. Plain `node` keeps the TypeScript compiler out of the
 * baseline's memory figure. Type errors are caught by `npm run typecheck`, not here.
 */
export function transpileBaseline(outDir: string): string {
  const output = ts.transpileModule(readFileSync(SOURCE, 'utf8'), {
    fileName: SOURCE,
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
    reportDiagnostics: true,
  });
  const problems = output.diagnostics ?? [];
  if (problems.length > 0) {
    const text = problems.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
    throw new Error(`Could not transpile ${SOURCE}:\n${text}`);
  }
  const target = join(outDir, 'baseline-server.js');
  writeFileSync(target, output.outputText);
  return target;
}

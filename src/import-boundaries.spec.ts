import { execFileSync } from 'node:child_process';

/**
 * The import-boundary rule of eslint.config.mjs (layers point down, ARCHITECTURE.md) catches
 * an arrow that runs back up and lets one that runs down pass. ESLint loads its config as an
 * ES module, which Jest's CommonJS sandbox cannot, so the files are linted by a child Node.
 */
function restrictedImports(files: Array<{ path: string; code: string }>): string[][] {
  const script = `
    import { ESLint } from 'eslint';
    const files = JSON.parse(process.argv[1]);
    const eslint = new ESLint({
      overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
      ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
    });
    const out = [];
    for (const file of files) {
      const [result] = await eslint.lintText(file.code, { filePath: file.path });
      out.push(result.messages.map((m) => m.message));
    }
    console.log(JSON.stringify(out));
  `;
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(files)], {
    cwd: `${__dirname}/..`,
    encoding: 'utf8',
  });
  return JSON.parse(stdout) as string[][];
}

describe('import boundaries (eslint no-restricted-imports)', () => {
  it('fails an import from a lower layer to a higher one, and passes one that points down', () => {
    const [
      coreToFeature,
      databaseToCore,
      customersToContacts,
      billingToDatabase,
      paymentsToPaymethods,
      relativeUp,
      ...down
    ] = restrictedImports([
      { path: 'src/core/fixture.ts', code: "import { CustomersService } from 'src/customers/customers.service';\n" },
      { path: 'src/database/fixture.ts', code: "import { Clock } from 'src/core/clock/clock';\n" },
      { path: 'src/customers/fixture.ts', code: "import { ContactsService } from 'src/contacts/contacts.service';\n" },
      { path: 'src/billing/pricing/fixture.ts', code: "import { UnitOfWork } from 'src/database/unit-of-work';\n" },
      { path: 'src/payments/fixture.ts', code: "import { checkCard } from 'src/paymethods/card-input';\n" },
      { path: 'src/items/fixture.ts', code: "import { AppModule } from '../app.module';\n" },
      {
        path: 'src/contacts/fixture.ts',
        code: "import { CustomersService } from 'src/customers/customers.service';\n",
      },
      { path: 'src/billing/pricing/fixture.ts', code: "import { Money } from 'src/core/money/decimal';\n" },
      { path: 'src/core/fixture.ts', code: "import { UnitOfWork } from 'src/database/unit-of-work';\n" },
    ]);
    expect(coreToFeature).toEqual([expect.stringContaining('src/core/ may import only config, database')]);
    expect(databaseToCore).toEqual([expect.stringContaining('src/database/ may import only config')]);
    expect(customersToContacts).toEqual([expect.stringContaining('src/customers/ may import only')]);
    expect(billingToDatabase).toEqual([expect.stringContaining('src/billing/ may import only core/money, core/time')]);
    expect(paymentsToPaymethods).toEqual([expect.stringContaining('src/payments/ may import only')]);
    expect(relativeUp).toEqual([expect.stringContaining('src/items/ may import only')]);
    expect(down).toEqual([[], [], []]);
  });

  it('holds the homes that are still moving: billing-runs/ and portal/', () => {
    const [invoicesToBillingRuns, customersToPortal, billingRunsToInvoices] = restrictedImports([
      { path: 'src/invoices/fixture.ts', code: "import { NightlyJob } from 'src/billing-runs/nightly-job';\n" },
      { path: 'src/customers/fixture.ts', code: "import { PortalModule } from 'src/portal/portal.module';\n" },
      {
        path: 'src/billing-runs/fixture.ts',
        code: "import { Invoice } from 'src/invoices/entities/invoice.entity';\n",
      },
    ]);
    expect(invoicesToBillingRuns).toHaveLength(1);
    expect(customersToPortal).toHaveLength(1);
    expect(billingRunsToInvoices).toEqual([]);
  });
});

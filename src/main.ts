import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { loadConfig, loadDotEnv } from './config/load-config';
import { configureApp } from './configure-app';
import { CredentialService } from './core/auth/credential.service';
import { AppLogger } from './ops/logging/app-logger';
import { handleShutdownSignals } from './ops/shutdown/graceful-shutdown';

async function bootstrap(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const app = await NestFactory.create(AppModule.forRoot(config), {
    bodyParser: false,
    bufferLogs: true,
  });
  app.useLogger(app.get(AppLogger));
  configureApp(app);
  handleShutdownSignals(app, config.shutdownTimeoutMs);
  const generated = await app.get(CredentialService).bootstrap();
  if (config.appRole === 'worker') {
    await app.init();
    Logger.log('Worker started (no HTTP)', 'Bootstrap');
    return;
  }
  await app.listen(config.port);
  Logger.log(`Billing API listening on ${config.publicUrl}/api/v3 (database: ${config.db.type})`, 'Bootstrap');
  if (generated) {
    // Printed once, on the first start of an empty database without API_USERNAME/API_PASSWORD.
    process.stdout.write(
      `\nAPI credential (save it, it is not shown again):\n  username: ${generated.username}\n  password: ${generated.password}\n  try: curl -u ${generated.username}:${generated.password} ${config.publicUrl}/api/v3/customer\n\n`,
    );
  }
}

bootstrap().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

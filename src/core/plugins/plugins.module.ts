import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Plugins } from './plugins';

/** `Plugins` for every host registry (global: any module may host plug-ins). */
@Global()
@Module({ imports: [DiscoveryModule], providers: [Plugins], exports: [Plugins] })
export class PluginsModule {}

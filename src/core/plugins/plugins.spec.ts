import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { pluginClass, pluginMethod, Plugins } from './plugins';
import { PluginsModule } from './plugins.module';

interface Greeter {
  greet(): string;
}
const GreeterPlugin = pluginClass<Greeter, void>();
const Named = pluginMethod<(n: number) => string, string>();

@Injectable()
@GreeterPlugin()
class Deep implements Greeter {
  greet(): string {
    return 'deep';
  }

  @Named('twice')
  twice(n: number): string {
    return `${this.greet()} ${n * 2}`;
  }
}

@Injectable()
class Unmarked {
  greet(): string {
    return 'unmarked';
  }
}

@Module({ providers: [Deep, { provide: 'alias', useExisting: Deep }], exports: [Deep] })
class DeepModule {}

@Injectable()
@GreeterPlugin()
class Top implements Greeter {
  constructor(readonly deep: Deep) {}

  greet(): string {
    return 'top';
  }

  @Named('plain')
  plain(): string {
    return 'plain';
  }
}

@Module({ imports: [DeepModule], providers: [Top, Unmarked] })
class TopModule {}

describe('Plugins', () => {
  it('finds marked providers and methods once each, the deepest module first, bound to their provider', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [PluginsModule, TopModule] }).compile();
    const plugins = moduleRef.get(Plugins);
    expect(plugins.classes(GreeterPlugin).map((p) => p.instance.greet())).toEqual(['deep', 'top']);
    const methods = plugins.methods(Named);
    expect(methods.map((m) => [m.options, m.name])).toEqual([
      ['twice', 'Deep.twice'],
      ['plain', 'Top.plain'],
    ]);
    expect(methods[0].handler(4)).toBe('deep 8');
    await moduleRef.close();
  });
});

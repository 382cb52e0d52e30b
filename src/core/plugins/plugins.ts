import { Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';

/**
 * How a module plugs into another (ARCHITECTURE.md "How a module plugs into another"): the
 * host declares a kind of plug-in with `pluginClass` or `pluginMethod`, the guest marks its
 * provider (or a method of it) with that decorator, and the host's registry asks `Plugins`
 * for every marked one when the application starts. The guest registers nothing by hand;
 * the host never imports the guest.
 */

/** Marks a provider class whose instance is the plug-in (it must implement `T`). */
export interface PluginClass<T, O> {
  (options: O): (target: abstract new (...args: never[]) => T) => void;
  readonly key: string;
}

/** Marks a method of a provider as the plug-in (its signature must be `F`). */
export interface PluginMethod<F, O> {
  (options: O): <M extends F>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => void;
  readonly key: string;
}

export function pluginClass<T, O = object>(): PluginClass<T, O> {
  const decorator = DiscoveryService.createDecorator<O>();
  const mark = (options: O) => (target: abstract new (...args: never[]) => T) => decorator(options)(target);
  return Object.assign(mark, { key: decorator.KEY });
}

let methodKinds = 0;

export function pluginMethod<F, O = object>(): PluginMethod<F, O> {
  const key = `plugin-method:${++methodKinds}`;
  const mark =
    (options: O) =>
    <M extends F>(_target: object, _key: string | symbol, descriptor: TypedPropertyDescriptor<M>) => {
      Reflect.defineMetadata(key, { options }, descriptor.value as object);
    };
  return Object.assign(mark, { key });
}

export interface FoundClass<T, O> {
  instance: T;
  options: O;
}

export interface FoundMethod<F, O> {
  /** The method, bound to its provider. */
  handler: F;
  options: O;
  /** `Class.method`, for messages. */
  name: string;
  /** The provider the method belongs to. */
  owner: object;
}

/**
 * Finds the plug-ins of a kind through Nest's DiscoveryService. Both lists come in the
 * order Nest starts modules (the deepest import first, as it calls `onModuleInit`), then
 * the order the module lists its providers, so where order matters (due work at one
 * moment, event listeners) it does not change from one start to the next.
 */
@Injectable()
export class Plugins {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  classes<T, O>(kind: PluginClass<T, O>): Array<FoundClass<T, O>> {
    const found: Array<FoundClass<T, O>> = [];
    for (const instance of this.instances()) {
      const options = Reflect.getMetadata(kind.key, instance.constructor) as O | undefined;
      if (options !== undefined) found.push({ instance: instance as T, options });
    }
    return found;
  }

  methods<F, O>(kind: PluginMethod<F, O>): Array<FoundMethod<F, O>> {
    return this.methodsWith<F, { options: O }>(kind.key).map((found) => ({ ...found, options: found.options.options }));
  }

  /**
   * The methods carrying metadata `key`, with that metadata as their options: for another
   * library's method decorator (Bull's `@Process`), read where that library put it.
   */
  methodsWith<F, O>(key: string): Array<FoundMethod<F, O>> {
    const found: Array<FoundMethod<F, O>> = [];
    for (const instance of this.instances()) {
      const record = instance as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
        const method = record[name];
        if (typeof method !== 'function') continue;
        const options = Reflect.getMetadata(key, method) as O | undefined;
        if (options === undefined) continue;
        found.push({
          handler: (method as (...args: unknown[]) => unknown).bind(instance) as F,
          options,
          name: `${instance.constructor.name}.${name}`,
          owner: instance,
        });
      }
    }
    return found;
  }

  /**
   * Each created provider once (an alias is the same instance), in the order Nest calls
   * `onModuleInit`: modules by distance from the root (the deepest first; at one distance,
   * as the container holds them), then within a module by dependency depth, then as listed.
   */
  private instances(): object[] {
    const wrappers = this.discovery
      .getProviders()
      .filter((w) => w.isDependencyTreeStatic() && typeof w.instance === 'object' && w.instance !== null);
    const moduleAt = new Map<unknown, number>();
    for (const w of wrappers) if (!moduleAt.has(w.host)) moduleAt.set(w.host, moduleAt.size);
    const seen = new Set<unknown>();
    return wrappers
      .map((w, i) => ({ w, i, module: moduleAt.get(w.host) ?? 0, distance: w.host?.distance ?? 0 }))
      .sort(
        (a, b) =>
          b.distance - a.distance || a.module - b.module || a.w.hierarchyLevel - b.w.hierarchyLevel || a.i - b.i,
      )
      .map(({ w }) => w.instance as object)
      .filter((instance) => !seen.has(instance) && seen.add(instance));
  }
}

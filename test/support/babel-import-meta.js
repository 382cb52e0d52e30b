// Babel plugin for Jest only: lets babel-jest compile NestJS 12's ES modules to CommonJS.
// - `import.meta.url` becomes the CommonJS file URL;
// - a top-level `const require = createRequire(import.meta.url)` is dropped, since
//   CommonJS already has `require` (keeping it would shadow the one Babel emits).
module.exports = function esmToCommonJsHelpers({ types: t }) {
  return {
    visitor: {
      Program(program) {
        for (const statement of program.get('body')) {
          if (!statement.isVariableDeclaration()) continue;
          const declarations = statement.node.declarations;
          if (declarations.length === 1 && t.isIdentifier(declarations[0].id, { name: 'require' })) statement.remove();
        }
      },
      MetaProperty(path) {
        if (path.node.meta.name !== 'import' || path.node.property.name !== 'meta') return;
        const fileUrl = t.memberExpression(
          t.callExpression(
            t.memberExpression(
              t.callExpression(t.identifier('require'), [t.stringLiteral('url')]),
              t.identifier('pathToFileURL'),
            ),
            [t.identifier('__filename')],
          ),
          t.identifier('href'),
        );
        path.replaceWith(t.objectExpression([t.objectProperty(t.identifier('url'), fileUrl)]));
      },
    },
  };
};

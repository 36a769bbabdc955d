/**
 * The boundaries of ../shared/DESIGN.md, checked by `npm run check` (docs/architecture.md).
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Modules form no cycle: one of the two depends on the other, or what both need moves down.',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'server-platform-not-modules',
      severity: 'error',
      comment: 'platform/ serves every module and knows none of them.',
      from: { path: '^apps/server/src/platform/' },
      to: { path: '^apps/server/src/modules/' },
    },
    {
      name: 'web-shared-not-features',
      severity: 'error',
      comment: 'components/, platform/ and app/ shells serve every feature and know none of them.',
      from: { path: '^apps/web/src/(components|platform)/' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'web-feature-not-other-feature',
      severity: 'error',
      comment:
        'A feature does not import another: what two features share moves to components/ or platform/.',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'contracts-not-apps',
      severity: 'error',
      comment: 'The contracts are shared by server and web and import nothing from either.',
      from: { path: '^packages/contracts/' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-barrels',
      severity: 'error',
      comment: 'No index files that gather other modules: import the module that holds the thing.',
      from: {},
      to: { path: '(^|/)index\\.tsx?$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
    moduleSystems: ['es6'],
  },
};

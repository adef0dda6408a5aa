// Prettier (npm run format; npm run lint checks it). The TypeScript and JavaScript files are parsed
// by oxc (@prettier/plugin-oxc, a native parser) instead of Prettier's default parsers: the same
// printer gives the same output (every file of src/ and test/ formats identically either way), and
// parsing was most of the check's CPU (about 44 s of CPU for the whole check, 29 s with oxc).
/** @type {import('prettier').Config} */
export default {
  printWidth: 160,
  singleQuote: true,
  semi: true,
  tabWidth: 2,
  trailingComma: 'all',
  arrowParens: 'always',
  endOfLine: 'lf',
  plugins: ['@prettier/plugin-oxc'],
  overrides: [
    { files: ['*.ts', '*.mts', '*.cts'], options: { parser: 'oxc-ts' } },
    { files: ['*.js', '*.mjs', '*.cjs'], options: { parser: 'oxc' } },
  ],
};

// restructure ships no type declarations; the benchmark uses it untyped.
declare module 'restructure';

// A value built on first use and kept (module loading and activate() build nothing that
// can wait, e.g. zod schemas, which cost more to construct than most requests take to validate).
export function lazy<T>(build: () => T): () => T {
  let built = false;
  let value: T;
  return () => {
    if (!built) {
      value = build();
      built = true;
    }
    return value;
  };
}

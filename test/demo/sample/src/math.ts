export function add(a: number, b: number): number {
  return a + b;
}

export function mean(xs: number[]): number {
  return xs.reduce(add, 0) / xs.length;
}

export interface BenchResult {
  name: string;
  figures: Record<string, number | string>;
}

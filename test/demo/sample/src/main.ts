import { mean } from './math';

console.log(mean([1, 2, 3]));

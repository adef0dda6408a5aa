/** A reader of this process's cpuacct cgroup: its CPU milliseconds so far, or undefined where there is none. */
export declare function cgroupUsageReader(): () => number | undefined;

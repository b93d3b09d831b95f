export declare const PRELUDE: string;

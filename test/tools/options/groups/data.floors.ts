// Floors for the "data" group's cases (see ../floors.ts).
export const FLOORS_DATA: Record<string, { equal: number; refused: number }> = {};

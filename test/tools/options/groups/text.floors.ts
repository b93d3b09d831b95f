// Floors for the "text" group's cases (see ../floors.ts).
export const FLOORS_TEXT: Record<string, { equal: number; refused: number }> = {};

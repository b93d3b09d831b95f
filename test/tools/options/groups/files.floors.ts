// Floors for the "files" group's cases (see ../floors.ts).
export const FLOORS_FILES: Record<string, { equal: number; refused: number }> = {};

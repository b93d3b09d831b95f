import { decode as decodePng, encode as encodePng } from "fast-png";
import jpeg from "jpeg-js";
import { ToolError } from "../result";
import { LIMITS } from "../../limits";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** jpeg-js refuses larger images before decoding them (a 1024x1024 image is 1.05 megapixels). */
const MAX_JPEG_MEGAPIXELS = LIMITS.jpegMegapixels;

export interface Png {
  bytes: Uint8Array;
  width: number;
  height: number;
  /** The format the provider sent when it was not PNG (the bytes were converted). */
  convertedFrom?: "JPEG";
}

const startsWith = (b: Uint8Array, sig: number[]) => sig.every((v, i) => b[i] === v);

function formatName(b: Uint8Array): string {
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50])) return "a WebP image";
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38])) return "a GIF image";
  if (b[0] === 0x7b || b[0] === 0x3c) return "text, not an image";
  return "bytes that are no known image format";
}

/**
 * The provider's bytes as a PNG that decodes: a PNG is decoded whole to prove it, a JPEG (what
 * FLUX on Workers AI returns) is converted, anything else is refused with what it was.
 */
export function asPng(bytes: Uint8Array): Png {
  if (startsWith(bytes, PNG_SIGNATURE)) {
    try {
      const img = decodePng(bytes);
      return { bytes, width: img.width, height: img.height };
    } catch {
      throw new ToolError("The image provider sent a damaged PNG (it does not decode); no image was saved. Try again.");
    }
  }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) {
    let img: { width: number; height: number; data: Uint8Array };
    try {
      img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false, maxResolutionInMP: MAX_JPEG_MEGAPIXELS, maxMemoryUsageInMB: 64 });
    } catch {
      throw new ToolError("The image provider sent a damaged JPEG (it does not decode); no image was saved. Try again.");
    }
    const png = encodePng({ width: img.width, height: img.height, data: img.data, channels: 3, depth: 8 });
    return { bytes: png, width: img.width, height: img.height, convertedFrom: "JPEG" };
  }
  throw new ToolError(
    `The image provider sent ${formatName(bytes)} instead of a PNG or JPEG; no image was saved. The operator should choose a model that returns PNG (TOOLSHED_IMAGE_MODEL).`,
  );
}

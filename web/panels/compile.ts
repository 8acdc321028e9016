/** The compile box: HLSL through the preprocessor, compiled and loaded like a file. */
import { ROOT_SIGNATURE_VERSIONS, compileRootSignatureBlob, HlslFile } from '../../src/index.js';
import { $, message, status } from '../dom.js';
import { load } from '../load.js';

/**
 * The compile box: HLSL through DXC's preprocessor, as the CLI reads a file. With a macro name the
 * root signature is that macro at the end of the text (`--define NAME`); without one, the taken
 * text itself. `-D NAME[=VALUE]` and `-U NAME` words apply in order, as on dxc's command line.
 */
export function compileText(): void {
  const text = ($('hlsl') as HTMLTextAreaElement).value;
  const define = ($('hlsl-define') as HTMLInputElement).value.trim();
  const flags = ($('hlsl-flags') as HTMLInputElement).value.trim();
  const version = ROOT_SIGNATURE_VERSIONS.find((v) => v.name === ($('hlsl-version') as HTMLSelectElement).value)!.value;
  try {
    const defines: ['D' | 'U', string][] = [];
    const words = flags === '' ? [] : flags.split(/\s+/);
    for (let i = 0; i < words.length; i++) {
      const m = /^-([DU])(.*)$/.exec(words[i]!);
      if (!m) throw new Error(`flags: ${words[i]} is neither -D NAME[=VALUE] nor -U NAME`);
      const arg = m[2] !== '' ? m[2]! : words[++i];
      if (arg === undefined) throw new Error(`flags: -${m[1]} needs a name`);
      defines.push([m[1] as 'D' | 'U', arg]);
    }
    const file = new HlslFile(text, 'pasted.hlsl', {}, {}, { defines });
    const source = define !== '' ? file.defineText(define) : file.takenText();
    const blob = compileRootSignatureBlob(source, { version });
    ($('mode') as HTMLSelectElement).value = 'auto';
    load('pasted.rs.dxbc', blob);
    status(`compiled as root signature ${ROOT_SIGNATURE_VERSIONS.find((v) => v.value === version)!.name}`);
  } catch (e) {
    status(message(e), true);
  }
}

// ---------------------------------------------------------------- layout

"""dxbin_rootsig: compiles a root signature from HLSL with dxbin, as one action per target.

The action's arguments go through a param file (`@file`, one argument per line), so the same
action runs as a persistent worker (JSON protocol, multiplex), sandboxed, locally, or on a remote
executor, with byte-identical outputs.
"""

def _dxbin_rootsig_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".dxbc")
    args = ctx.actions.args()
    args.add_all(["rootsig", "compile", "--file", ctx.file.src, "-E", ctx.attr.entry, "--version", ctx.attr.version, "-o", out])

    # every folder holding a header is searched by #include <...> (quoted ones look next to the includer first)
    args.add_all(sorted({h.dirname: True for h in ctx.files.hdrs}.keys()), before_each = "-I")
    args.use_param_file("@%s", use_always = True)
    args.set_param_file_format("multiline")
    ctx.actions.run(
        executable = ctx.executable._dxbin,
        arguments = [args],
        inputs = [ctx.file.src] + ctx.files.hdrs,
        outputs = [out],
        mnemonic = "DxbinRootsig",
        progress_message = "dxbin rootsig compile %s" % ctx.file.src.short_path,
        execution_requirements = {
            "supports-workers": "1",
            "supports-multiplex-workers": "1",
            "requires-worker-protocol": "json",
        },
    )
    return [DefaultInfo(files = depset([out]))]

dxbin_rootsig = rule(
    implementation = _dxbin_rootsig_impl,
    attrs = {
        "src": attr.label(allow_single_file = [".hlsl"], mandatory = True),
        "hdrs": attr.label_list(allow_files = [".hlsli", ".h"]),
        "entry": attr.string(default = "main"),
        "version": attr.string(default = "1.1", values = ["1.0", "1.1", "1.2"]),
        "_dxbin": attr.label(default = "//bazel:dxbin", executable = True, allow_single_file = True, cfg = "exec"),
    },
)

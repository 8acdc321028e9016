"""dxbin_rootsig: compiles a root signature from HLSL with dxbin, as one action per target.

The tool is dxbin as `npm install dxbin` put it in the workspace's node_modules (//:BUILD): its
entry point is the executable and every file of node_modules is a tool input, so a new dxbin is a
new action key (a cache miss), and the action needs nothing outside its inputs but `node` on PATH
(use_default_shell_env passes PATH; remote execution: docs/build-systems.md). The arguments go
through a param file (`@file`, one argument per line; dxbin reads Bazel's multiline, shell and
flag_per_line formats alike), so the same action runs as a persistent worker (JSON protocol,
multiplex), sandboxed, locally or on a remote executor, with byte-identical outputs.
"""

def _dxbin_rootsig_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".dxbc")
    args = ctx.actions.args()
    args.add_all(["rootsig", "compile", "--file", ctx.file.src, "-E", ctx.attr.entry, "--version", ctx.attr.version, "-o", out])

    # every folder holding a header is searched by #include <...> (quoted ones look next to the includer first)
    args.add_all(sorted({h.dirname: True for h in ctx.files.hdrs}.keys()), before_each = "-I")
    args.use_param_file("@%s", use_always = True)

    # multiline: what Bazel's worker strategy passes on as is (its requests carry the file's lines)
    args.set_param_file_format(ctx.attr.param_file_format)
    ctx.actions.run(
        executable = ctx.executable._dxbin,
        tools = ctx.files._dxbin_files,
        arguments = [args],
        inputs = [ctx.file.src] + ctx.files.hdrs,
        outputs = [out],
        mnemonic = "DxbinRootsig",
        progress_message = "dxbin rootsig compile %s" % ctx.file.src.short_path,
        use_default_shell_env = True,
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
        "param_file_format": attr.string(default = "multiline", values = ["multiline", "shell"]),
        "_dxbin": attr.label(default = "//:node_modules/dxbin/bin/dxbin.cjs", executable = True, allow_single_file = True, cfg = "exec"),
        "_dxbin_files": attr.label(default = "//:dxbin_files", cfg = "exec"),
    },
)

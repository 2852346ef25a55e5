# The latest published benchmark report of the type an instance would use: its headline
# figures, every scenario beside its peer, and the report as a white paper (Markdown).
data "basalt_benchmark_report" "small" {
  instance_type = "kv.standard.small"
}

output "small_reads_per_sec" {
  value = data.basalt_benchmark_report.small.reads_per_sec
}

output "small_vs_peer" {
  value = data.basalt_benchmark_report.small.peer_ratio
}

# `terraform output -raw small_report > kv.standard.small.md` keeps the white paper.
output "small_report" {
  value = data.basalt_benchmark_report.small.markdown
}

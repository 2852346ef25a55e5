package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type diagnostics = diag.Diagnostics

func mustCompile(pattern string) *regexp.Regexp { return regexp.MustCompile(pattern) }

// cidrValidator accepts what NormaliseCIDR accepts, at plan time.
type cidrValidator struct{}

var _ validator.String = cidrValidator{}

func (cidrValidator) Description(context.Context) string {
	return "an IPv4/IPv6 CIDR with zero host bits, or a bare address"
}
func (v cidrValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (cidrValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := NormaliseCIDR(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid CIDR", err.Error())
	}
}

// distinctNetworks refuses two allowlist entries naming the same network (10.0.0.1 and
// 10.0.0.1/32): the API would keep one, and the plan would never match the state.
type distinctNetworks struct{}

var _ validator.Set = distinctNetworks{}

func (distinctNetworks) Description(context.Context) string {
	return "no two entries name the same network"
}
func (v distinctNetworks) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (distinctNetworks) ValidateSet(ctx context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	seen := map[string]string{}
	for _, element := range req.ConfigValue.Elements() {
		obj, ok := element.(types.Object)
		if !ok || obj.IsUnknown() {
			continue
		}
		cidr, ok := obj.Attributes()["cidr"].(CIDRValue)
		if !ok || cidr.IsUnknown() || cidr.IsNull() {
			continue
		}
		network, err := NormaliseCIDR(cidr.ValueString())
		if err != nil {
			continue // cidrValidator reports it
		}
		if first, dup := seen[network.String()]; dup {
			resp.Diagnostics.AddAttributeError(req.Path, "Duplicate allowlist network",
				fmt.Sprintf("%q and %q are the same network (%s); keep one.", first, cidr.ValueString(), network))
			continue
		}
		seen[network.String()] = cidr.ValueString()
	}
}

// The backup rules of @basalt/api-client/rules (backup-rules.ts), which the API applies: a daily
// window `HH:MM-HH:MM` in UTC of at least an hour (it may cross midnight), 0-35 days of
// retention, and a restore's point in time in RFC 3339 to the second with a time zone.
const (
	backupWindowDefault        = "03:00-04:00"
	backupWindowMinMinutes     = 60
	backupRetentionDaysMin     = 0
	backupRetentionDaysMax     = 35
	backupRetentionDaysDefault = 7
)

var backupWindowPattern = mustCompile(`^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$`)
var pointInTimePattern = mustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2})$`)

// backupWindowProblem is why window is refused (the API's parseBackupWindow), or "".
func backupWindowProblem(window string) string {
	m := backupWindowPattern.FindStringSubmatch(window)
	if m == nil {
		return "must be HH:MM-HH:MM (24-hour, UTC), e.g. 03:00-04:00"
	}
	minutes := func(h, mm string) int {
		hours, _ := strconv.Atoi(h) // two digits: the pattern matched
		mins, _ := strconv.Atoi(mm)
		return hours*60 + mins
	}
	start, end := minutes(m[1], m[2]), minutes(m[3], m[4])
	if end <= start {
		end += 24 * 60
	}
	if end-start < backupWindowMinMinutes {
		return fmt.Sprintf("must be at least %d minutes long", backupWindowMinMinutes)
	}
	return ""
}

// pointInTimeProblem is why point is refused (the API's parsePointInTime), or "".
func pointInTimeProblem(point string) string {
	if !pointInTimePattern.MatchString(point) {
		return "must be RFC 3339 to the second with a time zone, e.g. 2026-12-01T10:15:30Z"
	}
	if _, err := time.Parse(time.RFC3339, point); err != nil {
		return "is not a real date and time"
	}
	return ""
}

// ruleValidator checks a string with one of the rules above at plan time.
type ruleValidator struct {
	description string
	problem     func(string) string
}

var _ validator.String = ruleValidator{}

func (v ruleValidator) Description(context.Context) string             { return v.description }
func (v ruleValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v ruleValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if problem := v.problem(req.ConfigValue.ValueString()); problem != "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+v.description, fmt.Sprintf("%q %s.", req.ConfigValue.ValueString(), problem))
	}
}

var backupWindowValidator = ruleValidator{description: "backup window", problem: backupWindowProblem}
var pointInTimeValidator = ruleValidator{description: "point in time", problem: pointInTimeProblem}

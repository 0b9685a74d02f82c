package isostress.harness.faults;

import java.time.Duration;
import java.util.List;

/**
 * When and where faults happen: repeatedly, wait {@code interval}, pick a fault and a target node at random
 * (from {@code seed}), hold it {@code duration}, heal it.
 *
 * @param faults   the faults to pick from ({@link Faults}), in the campaign's order
 * @param interval quiet time between faults
 * @param duration how long each fault lasts
 * @param targets  node numbers (1-based) faults may hit; all nodes when empty
 * @param latency  the delay a latency fault adds in each direction
 * @param seed     seeds the choice of fault and target
 */
public record NemesisSpec(List<Fault> faults, Duration interval, Duration duration, List<Integer> targets,
                          Duration latency, long seed) {
    public NemesisSpec {
        faults = List.copyOf(faults);
        targets = List.copyOf(targets);
    }
}
